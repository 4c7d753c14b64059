import { describe, expect, it } from 'vitest';
import { encodeOnce } from '../../src/images/edge/url-encode';

describe('encodeOnce', () => {
  it('gives requests for one variant at once one encode', async () => {
    let encodes = 0;
    const encode = async () => {
      encodes++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return new Uint8Array([7]);
    };
    const [a, b] = await Promise.all([encodeOnce('shared', encode, 1000), encodeOnce('shared', encode, 1000)]);
    expect(a).toEqual(new Uint8Array([7]));
    expect(b).toBe(a);
    expect(encodes).toBe(1);
  });

  it('encodes on its own once the shared encode has not come within its wait (that request was cancelled)', async () => {
    // An encode that never settles: what a request the runtime cancelled leaves behind.
    void encodeOnce('orphaned', () => new Promise<Uint8Array | null>(() => {}), 10);
    const own = await encodeOnce('orphaned', async () => new Uint8Array([1]), 20);
    expect(own).toEqual(new Uint8Array([1]));
    // The next request shares nothing stale: its own encode runs.
    expect(await encodeOnce('orphaned', async () => new Uint8Array([2]), 20)).toEqual(new Uint8Array([2]));
  });
});
