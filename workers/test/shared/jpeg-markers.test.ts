import { describe, expect, it } from 'vitest';
import {
  JpegMarkerWalker,
  type JpegSegment,
  type JpegVisit,
  type JpegVisitor,
  walkJpegMarkers,
} from '../../src/shared/image-header/jpeg-markers';
import { manyScanJpeg } from '../images/hostile';
import { jpegFixtures } from '../priority/fixtures';
import { walkJpeg as independentWalk } from '../priority/walk-jpeg';

const limits = { maxMarkers: 1000, maxScans: 100 };

/** Records every segment (keeping SOF and SOS payloads) and every scan end. */
function recorder(): JpegVisitor & {
  seen: { marker: number; payload: number[] | null; endBytes: number }[];
  scanEnds: number[];
} {
  const seen: { marker: number; payload: number[] | null; endBytes: number }[] = [];
  const scanEnds: number[] = [];
  return {
    seen,
    scanEnds,
    keep: (marker) => marker === 0xda || (marker >= 0xc0 && marker <= 0xc2),
    segment: ({ marker, payload, endBytes }: JpegSegment): JpegVisit => {
      seen.push({ marker, payload: payload && [...payload], endBytes });
      return 'continue';
    },
    scanEnded: (endBytes) => {
      scanEnds.push(endBytes);
      return 'continue';
    },
  };
}

function walkInChunks(bytes: Uint8Array, chunkBytes: number) {
  const visitor = recorder();
  const walker = new JpegMarkerWalker(visitor, limits);
  for (let at = 0; at < bytes.length && walker.status.kind === 'walking'; at += chunkBytes) {
    walker.push(bytes.subarray(at, at + chunkBytes));
  }
  return { status: walker.status, counts: walker.counts, seen: visitor.seen, scanEnds: visitor.scanEnds };
}

describe('JpegMarkerWalker', () => {
  it.each(jpegFixtures.map((f) => [f.name, f.bytes] as const))(
    'finds the scans of %s where an independent whole-file walk does',
    (_name, bytes) => {
      const truth = independentWalk(bytes);
      const walk = walkInChunks(bytes, bytes.length);
      expect(walk.status).toEqual({ kind: 'ended' });
      const scans = walk.seen.filter((segment) => segment.marker === 0xda);
      expect(scans.map((scan) => scan.endBytes)).toEqual(truth.scans.map((scan) => scan.dataAt));
      expect(walk.scanEnds).toEqual(truth.scans.map((scan) => scan.endAt));
      expect(scans.map((scan) => scan.payload?.[0])).toEqual(truth.scans.map((scan) => scan.components.length));
    },
  );

  it('gives the same segments, scan ends and status whatever the chunk size', () => {
    for (const fixture of jpegFixtures.slice(0, 3)) {
      const whole = walkInChunks(fixture.bytes, fixture.bytes.length);
      for (const chunkBytes of [1, 2, 3, 7, 64, 1000]) {
        expect(walkInChunks(fixture.bytes, chunkBytes)).toEqual(whole);
      }
    }
  });

  it('stops where the visitor says, and does not read further', () => {
    const bytes = jpegFixtures[0]?.bytes ?? new Uint8Array();
    let segments = 0;
    const walk = walkJpegMarkers(
      bytes,
      { keep: () => false, segment: () => (++segments === 2 ? 'stop' : 'continue') },
      limits,
    );
    expect(walk.status).toEqual({ kind: 'stopped' });
    expect(segments).toBe(2);
    const refused = walkJpegMarkers(bytes, { keep: () => false, segment: () => ({ invalid: 'no thanks' }) }, limits);
    expect(refused.status).toEqual({ kind: 'invalid', reason: 'no thanks' });
  });

  it('checks its budgets: scans, markers and the size of a kept segment', () => {
    const counting = { keep: () => false, segment: () => 'continue' as const };
    expect(walkJpegMarkers(manyScanJpeg(64, 500), counting, limits)).toMatchObject({
      status: { kind: 'invalid', reason: 'more than 100 JPEG scans' },
      scans: 101,
    });
    const app = [0xff, 0xe1, 0, 2];
    const manyMarkers = new Uint8Array([0xff, 0xd8, ...Array.from({ length: 1200 }, () => app).flat()]);
    expect(walkJpegMarkers(manyMarkers, counting, limits).status).toEqual({
      kind: 'invalid',
      reason: 'more than 1000 JPEG markers',
    });
    const hugeSof = new Uint8Array([0xff, 0xd8, 0xff, 0xc0, 0x08, 0x00, ...new Array<number>(2046).fill(0)]);
    expect(walkJpegMarkers(hugeSof, { keep: () => true, segment: () => 'continue' }, limits).status).toEqual({
      kind: 'invalid',
      reason: 'segment FFC0 is 2048 bytes long',
    });
  });

  it('names what is malformed: no SOI, no marker, a bad length, a stray SOI', () => {
    const counting = { keep: () => false, segment: () => 'continue' as const };
    const status = (bytes: number[]) => walkJpegMarkers(new Uint8Array(bytes), counting, limits).status;
    expect(status([0x89, 0x50])).toEqual({ kind: 'invalid', reason: 'not a JPEG: missing SOI marker' });
    expect(status([0xff, 0xd8, 0x00])).toEqual({ kind: 'invalid', reason: 'expected a marker at byte 2' });
    expect(status([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01])).toEqual({
      kind: 'invalid',
      reason: 'segment FFE0 has length 1',
    });
    expect(status([0xff, 0xd8, 0xff, 0xff, 0xd8])).toEqual({
      kind: 'invalid',
      reason: 'unexpected marker FFD8 at byte 3',
    });
    expect(status([0xff, 0xd8, 0xff, 0xe0, 0x00])).toEqual({ kind: 'walking' });
  });

  it('stays inside a scan across byte stuffing, restart markers and fill bytes', () => {
    const sos = [0xff, 0xda, 0x00, 0x08, 1, 1, 0x00, 0, 63, 0];
    const data = [0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56, 0xff, 0xff, 0xd9];
    const visitor = recorder();
    const walk = walkJpegMarkers(new Uint8Array([0xff, 0xd8, ...sos, ...data]), visitor, limits);
    expect(walk.status).toEqual({ kind: 'ended' });
    expect(visitor.scanEnds).toEqual([2 + sos.length + 7]);
    expect(walk.markers).toBe(2);
  });
});
