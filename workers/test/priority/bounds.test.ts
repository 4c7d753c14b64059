import { describe, expect, it } from 'vitest';
import { LayoutCache } from '../../src/priority/cache';
import { defaultPriorityConfig } from '../../src/priority/config';
import { prioritise } from '../../src/priority/handler';
import { maxJpegMarkers, maxJpegScans } from '../../src/priority/jpeg';
import { scanImage } from '../../src/priority/scanner';
import { manyScanJpeg } from '../images/hostile';
import { fixtures } from './fixtures';

const get = () => new Request('https://site.test/hostile.jpg');
const jpegResponse = (bytes: Uint8Array) =>
  new Response(bytes, { headers: { 'content-type': 'image/jpeg', 'content-length': String(bytes.byteLength) } });

describe('priority parsers are bounded by their input’s real content', () => {
  it(`gives up on a progressive JPEG with more than ${maxJpegScans} scans, naming the reason`, () => {
    // Scans of AC 6..63 never make the image "good", so without the limit the scanner would walk all of them.
    expect(scanImage(manyScanJpeg(64, 10_000, [6, 63]))).toEqual({
      kind: 'invalid',
      reason: `more than ${maxJpegScans} JPEG scans`,
    });
  });

  it(`gives up on a JPEG with more than ${maxJpegMarkers} marker segments`, () => {
    const comment = [0xff, 0xfe, 0x00, 0x03, 0x21];
    const bytes = new Uint8Array([0xff, 0xd8, ...Array.from({ length: 2000 }, () => comment).flat(), 0xff, 0xd9]);
    expect(scanImage(bytes)).toEqual({ kind: 'invalid', reason: `more than ${maxJpegMarkers} JPEG markers` });
  });

  it('passes the hostile JPEG through byte for byte, without priority headers', async () => {
    const hostile = manyScanJpeg(64, 10_000, [6, 63]);
    const { response, outcome } = await prioritise(
      get(),
      jpegResponse(hostile),
      defaultPriorityConfig,
      new LayoutCache(10),
    );
    expect(outcome).toMatchObject({ kind: 'unusable', reason: `more than ${maxJpegScans} JPEG scans` });
    expect(response.headers.get('cf-priority')).toBeNull();
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(hostile);
  });

  it('reads a header trickled one byte per chunk to the same answer as whole (no quadratic re-reads)', () => {
    for (const fixture of fixtures.filter((f) => !f.name.endsWith('.jpg'))) {
      expect(scanImage(fixture.bytes, undefined, 1), fixture.name).toEqual(scanImage(fixture.bytes));
    }
  });
});
