import { decodeVarnums, encodeVarnums } from '@speedkit/binast/wasm';
import { json, jsonError } from '../shared/json';
import type { Middleware } from '../shared/middleware';
import { withBinastWasm } from './codec';

const maxValues = 1024;

/**
 * `GET /__binast/varnum?n=1,300,…` encodes numbers as BinaryAST varnums in the Rust crate and decodes them back:
 * a diagnostic that proves the Wasm build is wired into the Worker.
 */
export const varnumRoute: Middleware = async (request, _env, _ctx, next) => {
  const url = new URL(request.url);
  if (url.pathname !== '/__binast/varnum') return next(request);
  const raw = url.searchParams.get('n');
  if (raw === null || raw === '') return jsonError(400, 'query parameter n is required', { example: '?n=1,300' });
  const parts = raw.split(',');
  if (parts.length > maxValues) return jsonError(400, `at most ${maxValues} numbers`, { count: parts.length });
  const values: number[] = [];
  for (const part of parts) {
    const value = Number(part);
    if (!/^\d+$/.test(part) || value > 0xffff_ffff) {
      return jsonError(400, 'each n must be an integer from 0 to 4294967295', { value: part });
    }
    values.push(value);
  }
  const bytes = withBinastWasm(() => encodeVarnums(Uint32Array.from(values)));
  const decoded = Array.from(withBinastWasm(() => decodeVarnums(bytes)));
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join(' ');
  return json({ values, hex, bytes: bytes.length, decoded });
};
