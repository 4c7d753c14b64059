/** Outcome of reading the `bytes` query parameter: a count, or why it was refused. */
export type BytesParam =
  | { ok: true; bytes: number }
  | { ok: false; status: 400 | 413; error: string; detail: Record<string, unknown> };

/**
 * Parses `bytes` as a decimal integer from 0 to `maxBytes`. Exponent forms (`1e5`) are accepted because
 * @cloudflare/speedtest's callers write sizes that way, but the value must still be a whole number.
 * @param raw the parameter as it appears in the URL, or null when absent
 * @param maxBytes the endpoint's cap
 * @param overCapStatus 400 for downloads (a bad request), 413 for uploads (the body is too large)
 */
export function parseBytesParam(raw: string | null, maxBytes: number, overCapStatus: 400 | 413 = 400): BytesParam {
  if (raw === null || raw.trim() === '') {
    return { ok: false, status: 400, error: 'query parameter bytes is required', detail: { example: '?bytes=100000' } };
  }
  if (!/^\+?\d+(\.\d+)?(e\+?\d+)?$/i.test(raw.trim())) {
    return { ok: false, status: 400, error: 'bytes must be a non-negative integer', detail: { bytes: raw } };
  }
  const bytes = Number(raw);
  if (!Number.isSafeInteger(bytes)) {
    return { ok: false, status: 400, error: 'bytes must be a non-negative integer', detail: { bytes: raw } };
  }
  if (bytes > maxBytes) {
    return {
      ok: false,
      status: overCapStatus,
      error: `bytes must be at most ${maxBytes}`,
      detail: { bytes, maxBytes },
    };
  }
  return { ok: true, bytes };
}
