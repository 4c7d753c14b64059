import { describe, expect, it } from 'vitest';
import { hopHeader, originFetch } from '../../src/shared/origin-fetch';

// The loop itself (wrangler dev with no origin) is tested end to end in scripts/test/standalone-loop.test.ts.
describe('originFetch', () => {
  it('answers 508 to a request that already passed through this capability, anywhere in a chain', async () => {
    const request = new Request('https://example.com/a.jpg', { headers: { [hopHeader]: 'images , priority' } });
    const response = await originFetch('priority')(request);
    expect(response.status).toBe(508);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as { detail: { hops: string[] } };
    expect(body.detail.hops).toEqual(['images', 'priority']);
  });
});
