import { describe, expect, it } from 'vitest';
import { acceptableFormats, chooseFormat } from '../../src/images/core/choose-format';
import type { ImageFormat, ModernFormat } from '../../src/images/core/formats';
import { parseAccept } from '../../src/shared/accept';

const both: ModernFormat[] = ['avif', 'webp'];
const choose = (accept: string | null, source: ImageFormat = 'jpeg', enabled = both) =>
  chooseFormat(parseAccept(accept), source, enabled);

describe('chooseFormat', () => {
  it.each([
    ['Chromium', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'avif'],
    ['Firefox', 'image/avif,image/webp,*/*', 'avif'],
    ['a WebP-only browser', 'image/webp,image/*,*/*;q=0.8', 'webp'],
    ['Safari 13 (image/* without WebP support)', 'image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5', null],
    ['curl', '*/*', null],
    ['a missing header', null, null],
    ['garbage', ';;;,,/', null],
    ['AVIF refused with q=0', 'image/avif;q=0,image/webp,*/*', 'webp'],
    ['both refused', 'image/avif;q=0,image/webp;q=0,image/*', null],
    ['a client preferring WebP by q', 'image/avif;q=0.5,image/webp;q=0.9', 'webp'],
    ['equal q (our preference breaks the tie)', 'image/webp;q=0.9,image/avif;q=0.9', 'avif'],
  ])('answers %s with %s', (_name, accept, expected) => {
    expect(choose(accept)).toBe(expected);
  });

  it('only offers formats the deployment enabled', () => {
    expect(choose('image/avif,image/webp', 'jpeg', ['webp'])).toBe('webp');
  });

  it('converts a WebP source to AVIF only, and not when the client weighs WebP higher', () => {
    expect(choose('image/avif,image/webp', 'webp')).toBe('avif');
    expect(choose('image/avif;q=0.5,image/webp', 'webp')).toBeNull();
    expect(choose('image/webp', 'webp')).toBeNull();
  });

  it('never converts an AVIF source', () => {
    expect(choose('image/avif,image/webp', 'avif')).toBeNull();
  });
});

describe('acceptableFormats', () => {
  it('lists the best format first and the fallback second', () => {
    expect(acceptableFormats(parseAccept('image/avif,image/webp'), 'png', both)).toEqual(['avif', 'webp']);
  });

  it('is empty when the original is the answer', () => {
    expect(acceptableFormats(parseAccept('image/*'), 'png', both)).toEqual([]);
  });
});
