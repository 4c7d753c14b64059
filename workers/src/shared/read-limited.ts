import { concatBytes } from './image-header/bytes';

/**
 * Reads a body up to `maxBytes`. Returns `null` when it is larger (checked from Content-Length first, then while
 * reading, since the header can be missing or wrong); the stream is cancelled then.
 */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes || !response.body) {
    await response.body?.cancel();
    return response.body ? null : new Uint8Array();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
