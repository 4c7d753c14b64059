import type { Layout } from '../../../wasm/binast/js/encode-javascript.js';

/** Deployment settings of the BinaryAST Worker, from `BINAST_*` vars. */
export interface BinastConfig {
  /** Which container layout to store and serve. */
  readonly layout: Layout;
  /** Function nesting depth encoded lazily (skip lengths), 0-3. */
  readonly lazyLevel: number;
  /** Larger scripts are served as-is: acorn's tree costs ~40-60 bytes of heap per source byte and an isolate has 128 MB. */
  readonly maxSourceBytes: number;
}

export const defaultConfig: BinastConfig = {
  // The optimised layout is smaller after brotli (bench/binast) and the loader decodes both.
  layout: 'optimised',
  // Our loader regenerates the whole script, so skip lengths would only add bytes; engines that parse lazily
  // would set 1.
  lazyLevel: 0,
  maxSourceBytes: 1024 * 1024,
};

/** Reads `BINAST_*` vars; a missing or invalid one takes its default (invalid ones are logged). */
export function readConfig(env: Readonly<Record<string, unknown>>): BinastConfig {
  const warn = (name: string, raw: unknown, fallback: unknown) => {
    console.warn(`binast: ${name}=${String(raw)} is invalid, using ${String(fallback)}`);
    return fallback;
  };
  const rawLayout = env.BINAST_LAYOUT;
  const layout =
    rawLayout === undefined || rawLayout === ''
      ? defaultConfig.layout
      : rawLayout === 'multipart' || rawLayout === 'optimised'
        ? rawLayout
        : (warn('BINAST_LAYOUT', rawLayout, defaultConfig.layout) as Layout);
  const integer = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    return Number.isInteger(value) && value >= min && value <= max ? value : (warn(name, raw, fallback) as number);
  };
  return {
    layout,
    lazyLevel: integer('BINAST_LAZY_LEVEL', defaultConfig.lazyLevel, 0, 3),
    maxSourceBytes: integer('BINAST_MAX_SOURCE_BYTES', defaultConfig.maxSourceBytes, 1, 64 * 1024 * 1024),
  };
}
