import { describe, expect, it } from 'vitest';
import {
  acceptsExplicitly,
  explicitQuality,
  maxAcceptChars,
  maxAcceptRanges,
  parseAccept,
} from '../../src/shared/accept';

describe('parseAccept', () => {
  it('returns no ranges for a missing or empty header', () => {
    expect(parseAccept(null)).toEqual([]);
    expect(parseAccept(undefined)).toEqual([]);
    expect(parseAccept('')).toEqual([]);
  });

  it('parses what Chromium sends for an <img>', () => {
    expect(parseAccept('image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8')).toEqual([
      { type: 'image', subtype: 'avif', q: 1 },
      { type: 'image', subtype: 'webp', q: 1 },
      { type: 'image', subtype: 'apng', q: 1 },
      { type: 'image', subtype: 'svg+xml', q: 1 },
      { type: 'image', subtype: '*', q: 1 },
      { type: '*', subtype: '*', q: 0.8 },
    ]);
  });

  it('lower-cases types and tolerates spaces around separators', () => {
    expect(parseAccept(' Image/WebP ; Q=0.5 ')).toEqual([{ type: 'image', subtype: 'webp', q: 0.5 }]);
  });

  it('drops ranges with a malformed q-value instead of guessing', () => {
    expect(parseAccept('image/avif;q=abc, image/webp;q=1.5, image/png;q=0.123')).toEqual([
      { type: 'image', subtype: 'png', q: 0.123 },
    ]);
  });

  it('drops garbage ranges and keeps the valid ones', () => {
    expect(parseAccept('garbage, /avif, image/, */webp, a/b/c, image/webp')).toEqual([
      { type: 'image', subtype: 'webp', q: 1 },
    ]);
  });

  it('reads a bare * as */*', () => {
    expect(parseAccept('*')).toEqual([{ type: '*', subtype: '*', q: 1 }]);
  });

  it('ignores parameters other than q', () => {
    expect(parseAccept('image/webp;level=1;q=0.4')).toEqual([{ type: 'image', subtype: 'webp', q: 0.4 }]);
  });
});

describe('explicitQuality', () => {
  it('gives the q of a range that names the type', () => {
    expect(explicitQuality(parseAccept('image/avif;q=0.7'), 'image/avif')).toBe(0.7);
  });

  it('does not let image/* or */* stand for a specific new format', () => {
    expect(explicitQuality(parseAccept('image/*,*/*;q=0.8'), 'image/avif')).toBe(0);
  });

  it('treats q=0 as a refusal', () => {
    expect(explicitQuality(parseAccept('image/avif;q=0,image/webp'), 'image/avif')).toBe(0);
  });

  it('lets a refusal win over a duplicate acceptance', () => {
    expect(explicitQuality(parseAccept('image/webp,image/webp;q=0'), 'image/webp')).toBe(0);
  });
});

describe('acceptsExplicitly', () => {
  it('says yes only for the named type with a non-zero weight', () => {
    expect(acceptsExplicitly('image/avif,image/webp,*/*;q=0.8', 'image/avif')).toBe(true);
    expect(acceptsExplicitly('image/avif;q=0', 'image/avif')).toBe(false);
    expect(acceptsExplicitly('image/*,*/*', 'image/avif')).toBe(false);
    expect(acceptsExplicitly(undefined, 'image/avif')).toBe(false);
  });

  it('ignores ranges past the parsing bound', () => {
    const padding = Array.from({ length: maxAcceptRanges }, (_, index) => `text/x-${index}`).join(',');
    expect(acceptsExplicitly(`${padding},image/avif`, 'image/avif')).toBe(false);
    expect(acceptsExplicitly(`${'x'.repeat(maxAcceptChars)},image/avif`, 'image/avif')).toBe(false);
  });
});
