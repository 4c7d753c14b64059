import { describe, expect, it } from 'vitest';
import { ExpiringClaims } from '../../src/shared/expiring-claims';

describe('ExpiringClaims', () => {
  it('lets one holder claim a key until it releases it', () => {
    const claims = new ExpiringClaims(60_000);
    expect(claims.claim('a.jpg#avif', 1000)).toBe(true);
    expect(claims.claim('a.jpg#avif', 2000)).toBe(false);
    expect(claims.claim('b.jpg#avif', 2000)).toBe(true);
    claims.release('a.jpg#avif', 1000);
    expect(claims.claim('a.jpg#avif', 3000)).toBe(true);
  });

  it('forgets a claim whose holder never released it (its request was cancelled), and keeps the newer one', () => {
    const claims = new ExpiringClaims(60_000);
    expect(claims.claim('a.jpg#avif', 0)).toBe(true);
    expect(claims.claim('a.jpg#avif', 59_999)).toBe(false);
    expect(claims.claim('a.jpg#avif', 60_000)).toBe(true);
    // The first holder finishing late does not end the second one's claim.
    claims.release('a.jpg#avif', 0);
    expect(claims.claim('a.jpg#avif', 60_001)).toBe(false);
  });
});
