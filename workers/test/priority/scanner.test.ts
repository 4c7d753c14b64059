import { describe, expect, it } from 'vitest';
import type { ImageLayout } from '../../src/priority/layout';
import { scanImage } from '../../src/priority/scanner';
import { type Fixture, fixtures, jpegFixtures } from './fixtures';
import { type WalkedJpeg, walkJpeg } from './walk-jpeg';

/** Sizes of the source photos in fixtures/images (from their own headers, read once by hand). */
const photoSizes: Record<string, [number, number]> = {
  astronaut: [512, 512],
  brick: [512, 512],
  chelsea: [451, 300],
  coffee: [600, 400],
  grass: [512, 512],
  gravel: [512, 512],
  hubble_deep_field: [1000, 872],
};

/** Resize widths used by make-images.mjs for the non-JPEG variants. */
const resizedWidth: Record<string, number> = {
  'image.png': 256,
  'image.gif': 128,
  'lossless.webp': 128,
  'image.avif': 256,
};

function layoutOf(fixture: Fixture, chunkBytes?: number): ImageLayout {
  const result = scanImage(fixture.bytes, undefined, chunkBytes);
  if (result.kind !== 'done') throw new Error(`${fixture.name}: ${JSON.stringify(result)}`);
  return result.layout;
}

/** Expected offsets derived from the independent walk, using the documented rule (luma AC 1..5 within 2^1). */
function expectedFromWalk(walked: WalkedJpeg) {
  const dcDone = new Set<number>();
  const lumaShift = new Array<number>(64).fill(99);
  let previewEnd: number | undefined;
  let goodEnd: number | undefined;
  for (const scan of walked.scans) {
    if (scan.ss === 0 && scan.ah === 0) for (const c of scan.components) dcDone.add(c);
    if (scan.components.includes(walked.componentIds[0] as number)) {
      for (let k = scan.ss; k <= scan.se; k++) lumaShift[k] = Math.min(lumaShift[k] as number, scan.al);
    }
    if (previewEnd === undefined && dcDone.size === walked.componentIds.length) previewEnd = scan.endAt;
    if (previewEnd !== undefined && goodEnd === undefined && lumaShift.slice(1, 6).every((al) => al <= 1)) {
      goodEnd = scan.endAt;
    }
  }
  return { headerEnd: walked.scans[0]?.dataAt, previewEnd, goodEnd };
}

const progressive = jpegFixtures.filter((f) => walkJpeg(f.bytes).sofMarker !== 0xc0);
const baseline = jpegFixtures.filter((f) => walkJpeg(f.bytes).sofMarker === 0xc0);

describe('JPEG scanner against an independent marker walk', () => {
  it('has fixtures from both encoders and every scan script', () => {
    expect(progressive.length).toBeGreaterThanOrEqual(60);
    expect(baseline.length).toBeGreaterThanOrEqual(20);
    expect(new Set(jpegFixtures.map((f) => f.variant)).size).toBe(14);
  });

  it.each(progressive.map((f) => [f.name, f] as const))('finds header, preview and good offsets of %s', (_, f) => {
    const walked = walkJpeg(f.bytes);
    const expected = expectedFromWalk(walked);
    const layout = layoutOf(f);
    expect(layout).toMatchObject({ format: 'jpeg', progressive: true, width: walked.width, height: walked.height });
    expect(layout.headerEndBytes).toBe(expected.headerEnd);
    expect(layout.previewEndBytes).toBe(expected.previewEnd);
    expect(layout.goodEndBytes).toBe(expected.goodEnd);
  });

  it.each(baseline.map((f) => [f.name, f] as const))('reports only the header of baseline %s', (_, f) => {
    const layout = layoutOf(f);
    expect(layout.progressive).toBe(false);
    expect(layout.headerEndBytes).toBe(walkJpeg(f.bytes).scans[0]?.dataAt);
    expect(layout.previewEndBytes).toBeUndefined();
  });

  it('reads the dimensions of every JPEG as the photo it came from', () => {
    for (const f of jpegFixtures) {
      const layout = layoutOf(f);
      expect([layout.width, layout.height], f.name).toEqual(photoSizes[f.photo]);
    }
  });

  it('ends every stage exactly on a marker that is not a restart marker', () => {
    for (const f of progressive) {
      const layout = layoutOf(f);
      for (const at of [layout.previewEndBytes, layout.goodEndBytes] as number[]) {
        expect(f.bytes[at], f.name).toBe(0xff);
        expect([0x00, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7]).not.toContain(f.bytes[at + 1]);
      }
    }
  });
});

describe('JPEG scanner on the hard parts of real files', () => {
  const named = (variant: string) => jpegFixtures.filter((f) => f.variant === variant);

  it('puts the header end after EXIF (APP1) and ICC (APP2) segments', () => {
    for (const f of [...named('sharp-mozjpeg-progressive-exif-icc.jpg'), ...named('sharp-baseline-exif-icc.jpg')]) {
      const walked = walkJpeg(f.bytes);
      expect(walked.appMarkers, f.name).toEqual(expect.arrayContaining([0xe1, 0xe2]));
      expect(layoutOf(f).headerEndBytes).toBeGreaterThan(1500); // the ~1 KB description plus the P3 profile
    }
  });

  it('skips restart markers inside progressive scans', () => {
    for (const f of named('cjpeg-progressive-restart.jpg')) {
      expect(walkJpeg(f.bytes).restartMarkers, f.name).toBeGreaterThan(100);
      expect(layoutOf(f).goodEndBytes).toBe(expectedFromWalk(walkJpeg(f.bytes)).goodEnd);
    }
  });

  it('assigns DHT segments between scans to the next scan', () => {
    const f = named('cjpeg-progressive.jpg')[0] as Fixture;
    const layout = layoutOf(f);
    expect(walkJpeg(f.bytes).dhtSegments).toBeGreaterThan(2);
    expect(f.bytes[(layout.previewEndBytes as number) + 1]).toBe(0xc4); // preview ends where the next DHT begins
  });

  it('follows the libjpeg default script: preview after the first scan, good after the luma refinement', () => {
    for (const f of named('cjpeg-progressive.jpg')) {
      const scans = walkJpeg(f.bytes).scans;
      expect(layoutOf(f)).toMatchObject({ previewEndBytes: scans[0]?.endAt, goodEndBytes: scans[5]?.endAt });
    }
  });

  it('waits for luma DC when a custom script sends chroma DC first', () => {
    for (const f of named('jpegtran-scans-chroma-first.jpg')) {
      const scans = walkJpeg(f.bytes).scans;
      expect(layoutOf(f)).toMatchObject({ previewEndBytes: scans[2]?.endAt, goodEndBytes: scans[4]?.endAt });
    }
  });

  it('counts successive-approximation refinements in a deep custom script', () => {
    for (const f of named('jpegtran-scans-deep-approximation.jpg')) {
      const scans = walkJpeg(f.bytes).scans;
      expect(layoutOf(f)).toMatchObject({ previewEndBytes: scans[0]?.endAt, goodEndBytes: scans[6]?.endAt });
    }
  });

  it('recognises arithmetic-coded progressive frames (SOF10)', () => {
    for (const f of named('cjpeg-arithmetic-progressive.jpg')) {
      expect(walkJpeg(f.bytes).sofMarker).toBe(0xca);
      expect(layoutOf(f).progressive).toBe(true);
    }
  });

  it('gives the same answer whatever the chunk boundaries', () => {
    for (const f of jpegFixtures) {
      const whole = layoutOf(f);
      for (const chunkBytes of [1, 7, 1000, 4096])
        expect(layoutOf(f, chunkBytes), `${f.name}/${chunkBytes}`).toEqual(whole);
    }
  });
});

describe('PNG, GIF, WebP and AVIF headers', () => {
  const others = fixtures.filter((f) => !f.name.endsWith('.jpg'));

  it.each(others.map((f) => [f.name, f] as const))('reads the dimensions of %s', (_, f) => {
    const [width, height] = photoSizes[f.photo] as [number, number];
    const target = resizedWidth[f.variant] ?? width;
    const layout = layoutOf(f);
    expect(layout).toMatchObject({ progressive: false, width: target, height: Math.round((height * target) / width) });
    expect(layout.headerEndBytes).toBeLessThan(f.bytes.length);
  });

  it('ends the PNG header after IHDR and the WebP header inside the first chunk', () => {
    for (const f of others) {
      const layout = layoutOf(f);
      if (f.variant === 'image.png') expect(layout.headerEndBytes).toBe(33);
      if (f.variant === 'lossy.webp' || f.variant === 'lossless.webp')
        expect(layout.headerEndBytes).toBeLessThanOrEqual(30);
    }
  });

  it('ends the AVIF header with the meta box, before the pixel data', () => {
    for (const f of others.filter((o) => o.variant === 'image.avif')) {
      const end = layoutOf(f).headerEndBytes;
      expect(String.fromCharCode(...f.bytes.subarray(end + 4, end + 8)), f.name).toMatch(/mdat|free|skip/);
    }
  });
});
