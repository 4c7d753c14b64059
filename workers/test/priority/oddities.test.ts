// JPEGs as phones, cameras and old tools write them, through the priority Worker: each gets headers at offsets that
// are in the file, or none, and always its own bytes unchanged.
import { describe, expect, it } from 'vitest';
import { LayoutCache } from '../../src/priority/cache';
import { defaultPriorityConfig } from '../../src/priority/config';
import { prioritise } from '../../src/priority/handler';
import { concatBytes } from '../../src/shared/image-header/bytes';
import { type Fixture, fixtures } from './fixtures';

const fixture = (name: string) => (fixtures.find((f) => f.name === name) as Fixture).bytes;
const progressive = fixture('chelsea--cjpeg-progressive.jpg');
const baseline = fixture('chelsea--sharp-baseline.jpg');

/** `jpeg` with its frame header changed by `edit` (given the offset of the SOF marker's FF). */
function withFrame(jpeg: Uint8Array, edit: (bytes: Uint8Array, sof: number) => void): Uint8Array {
  const bytes = jpeg.slice();
  edit(
    bytes,
    bytes.findIndex((byte, i) => byte === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2)),
  );
  return bytes;
}

const oddities: [string, Uint8Array, 'headers' | 'none'][] = [
  ['restart markers', fixture('chelsea--cjpeg-progressive-restart.jpg'), 'headers'],
  ['arithmetic coding', fixture('chelsea--cjpeg-arithmetic-progressive.jpg'), 'headers'],
  [
    '12-bit samples',
    withFrame(progressive, (b, sof) => {
      b[sof + 4] = 12;
    }),
    'headers',
  ],
  [
    'an extended sequential frame (SOF1)',
    withFrame(baseline, (b, sof) => {
      b[sof + 1] = 0xc1;
    }),
    'headers',
  ],
  [
    'a lossless frame (SOF3)',
    withFrame(baseline, (b, sof) => {
      b[sof + 1] = 0xc3;
    }),
    'headers',
  ],
  [
    'its height in a DNL marker',
    withFrame(progressive, (b, sof) => {
      b[sof + 5] = 0;
      b[sof + 6] = 0;
    }),
    'none',
  ],
  ['a second image after its EOI (MPO)', concatBytes([progressive, baseline]), 'headers'],
  ['a trailer after its EOI', concatBytes([progressive, new Uint8Array(5000).fill(7)]), 'headers'],
  ['its body cut inside a scan', progressive.subarray(0, Math.floor(progressive.length * 0.6)), 'headers'],
  ['PNG bytes', fixture('chelsea--image.png'), 'headers'],
  ['no bytes at all', new Uint8Array(), 'none'],
];

describe('prioritise on odd JPEGs', () => {
  it.each(oddities)('answers a JPEG with %s with its bytes unchanged', async (_name, bytes, expected) => {
    for (const priority of [undefined, 'u=2, i', 'u=4, i']) {
      const request = new Request('https://site.test/odd.jpg', priority ? { headers: { priority } } : {});
      const origin = new Response(bytes, {
        headers: { 'content-type': 'image/jpeg', 'content-length': String(bytes.length) },
      });
      const { response } = await prioritise(request, origin, defaultPriorityConfig, new LayoutCache(10));
      const out = new Uint8Array(await response.arrayBuffer());
      const offsets = (response.headers.get('cf-priority-change') ?? '').match(/\d+(?=:)/g)?.map(Number) ?? [];
      expect({
        same: out.length === bytes.length && out.every((byte, i) => byte === bytes[i]),
        headers: response.headers.has('cf-priority') ? 'headers' : 'none',
        offsetsInFile: offsets.every((offset) => offset > 0 && offset <= bytes.length),
      }).toEqual({ same: true, headers: expected, offsetsInFile: true });
    }
  });
});
