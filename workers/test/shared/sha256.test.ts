import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/shared/sha256';

describe('sha256Hex', () => {
  it('hashes text as UTF-8 and bytes alike', async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(await sha256Hex('abc')).toBe(abc);
    expect(await sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(abc);
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
