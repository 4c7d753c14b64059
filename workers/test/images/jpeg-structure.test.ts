import { describe, expect, it } from 'vitest';
import { walkJpeg } from '../../src/images/core/jpeg-structure';
import { fixtures } from '../priority/fixtures';
import { walkJpeg as independentWalk } from '../priority/walk-jpeg';
import { manyScanJpeg } from './hostile';

const limits = { maxScans: 100, maxMarkers: 1000 };

describe('walkJpeg', () => {
  it.each(fixtures.filter((f) => f.name.endsWith('.jpg')).map((f) => [f.name, f.bytes] as const))(
    'counts the scans of %s like an independent whole-file walk',
    (_name, bytes) => {
      const walk = walkJpeg(bytes, limits);
      expect(walk.ok).toBe(true);
      if (walk.ok) expect(walk.structure.scans).toBe(independentWalk(bytes).scans.length);
    },
  );

  it('stops at the scan limit, however many scans follow', () => {
    expect(walkJpeg(manyScanJpeg(1728, 10_000), limits)).toEqual({ ok: false, reason: 'more than 100 JPEG scans' });
  });

  it('refuses what is not a JPEG', () => {
    expect(walkJpeg(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), limits).ok).toBe(false);
  });
});
