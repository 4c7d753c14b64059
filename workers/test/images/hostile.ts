// Hostile inputs from issue #20, built byte by byte so the tests need no generated files.

const segment = (marker: number, payload: readonly number[]) => [
  0xff,
  marker,
  (payload.length + 2) >> 8,
  (payload.length + 2) & 0xff,
  ...payload,
];

/**
 * A progressive greyscale JPEG of `size`×`size` whose DC scan is all zero and which then carries `emptyScans` AC
 * scans with no entropy data: a few bytes each, but every scan makes a progressive decoder walk the whole frame
 * (issue #20: 10,000 of them over 1728×1728 held the isolate for 6.3 s). `band` is each AC scan's spectral range.
 */
export function manyScanJpeg(size: number, emptyScans: number, band: readonly [number, number] = [1, 63]): Uint8Array {
  const blocks = Math.ceil(size / 8) ** 2;
  const bytes: number[] = [0xff, 0xd8];
  bytes.push(...segment(0xdb, [0x00, ...new Array<number>(64).fill(1)])); // DQT: table 0, all ones
  bytes.push(...segment(0xc2, [8, size >> 8, size & 0xff, size >> 8, size & 0xff, 1, 1, 0x11, 0])); // SOF2
  const oneCode = [1, ...new Array<number>(15).fill(0), 0]; // one 1-bit code for symbol 0
  bytes.push(...segment(0xc4, [0x00, ...oneCode])); // DC table 0: "no difference"
  bytes.push(...segment(0xc4, [0x10, ...oneCode])); // AC table 0: end of block
  bytes.push(...segment(0xda, [1, 1, 0x00, 0, 0, 0x00])); // DC first scan
  bytes.push(...new Array<number>(Math.ceil(blocks / 8)).fill(0)); // one 0 bit per block
  for (let scan = 0; scan < emptyScans; scan += 1) bytes.push(...segment(0xda, [1, 1, 0x00, band[0], band[1], 0x00]));
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}

/** A tiny origin: answers each path from a table, counting requests per URL (to prove a host was never asked). */
export function fakeOrigin(routes: Record<string, () => Response>) {
  const asked: string[] = [];
  const fetcher = async (request: Request) => {
    asked.push(request.url);
    const route = routes[request.url];
    return route ? route() : new Response('not found', { status: 404 });
  };
  return { fetcher, asked };
}
