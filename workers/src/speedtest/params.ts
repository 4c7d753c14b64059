/** Outcome of reading the `bytes` query parameter: a count, or why it was refused. */
export type BytesParam =
  | { ok: true; bytes: number }
  | { ok: false; status: 400 | 413; error: string; detail: Record<string, unknown> };

/**
 * Parses `bytes` as a decimal integer from 0 to `maxBytes`. Exponent forms (`1e5`) are accepted because
 * @cloudflare/speedtest's callers write sizes that way, but the value must still be a whole number.
 * @param given the parameter as it appears in the URL, or null when absent; every value when the URL may repeat it
 *   (`searchParams.getAll`): a repeated `bytes` is refused rather than one of them picked silently
 * @param maxBytes the endpoint's cap
 * @param overCapStatus 400 for downloads (a bad request), 413 for uploads (the body is too large)
 */
export function parseBytesParam(
  given: string | null | readonly string[],
  maxBytes: number,
  overCapStatus: 400 | 413 = 400,
): BytesParam {
  if (Array.isArray(given) && given.length > 1) {
    return { ok: false, status: 400, error: 'give query parameter bytes once', detail: { bytes: given } };
  }
  const raw: string | null = typeof given === 'string' || given === null ? given : (given[0] ?? null);
  if (raw === null || raw.trim() === '') {
    return { ok: false, status: 400, error: 'query parameter bytes is required', detail: { example: '?bytes=100000' } };
  }
  // Digits as a number formatter writes them: no sign, no blanks (`+5` and ` 5` are nothing a client means to send,
  // and Number() would have read both as 5).
  if (!/^\d+(\.\d+)?(e\+?\d+)?$/i.test(raw)) {
    return { ok: false, status: 400, error: 'bytes must be a non-negative integer', detail: { bytes: raw } };
  }
  const bytes = Number(raw);
  // A whole number too large to hold exactly (20 digits) is over any cap: say so, as for any other large value.
  if (Number.isInteger(bytes) && bytes > maxBytes) {
    return {
      ok: false,
      status: overCapStatus,
      error: `bytes must be at most ${maxBytes}`,
      detail: { bytes: Number.isSafeInteger(bytes) ? bytes : raw, maxBytes },
    };
  }
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
