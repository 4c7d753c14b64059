import { describe, expect, it } from 'vitest';
import { downloadCompression } from '../src/probe';

// Zeros compressed on the way would be counted decoded: the engine must see the coding from the header when the page
// may read it, else from the resource-timing sizes.
describe('downloadCompression', () => {
  it('names a content coding from the header, whatever its case or spaces', () => {
    expect(downloadCompression('gzip')).toBe('Content-Encoding: gzip');
    expect(downloadCompression(' BR ')).toBe('Content-Encoding: BR');
  });

  it('names a coding in a list of them', () => {
    expect(downloadCompression('identity, zstd')).toBe('Content-Encoding: identity, zstd');
  });

  it('takes no coding, identity and codings no browser decodes for an uncompressed download', () => {
    expect(downloadCompression(null)).toBeNull();
    expect(downloadCompression('')).toBeNull();
    expect(downloadCompression('identity')).toBeNull();
    expect(downloadCompression('none')).toBeNull();
    expect(downloadCompression('gzipped-maybe')).toBeNull();
    expect(downloadCompression(null, { encodedBodySize: 100_000, decodedBodySize: 100_000 })).toBeNull();
  });

  it('finds a coding the header hid (another origin without it exposed) from fewer bytes on the wire', () => {
    expect(downloadCompression(null, { encodedBodySize: 131, decodedBodySize: 100_000 })).toBe(
      '131 bytes on the wire for 100000 delivered',
    );
  });

  it('draws nothing from sizes the server withheld (no Timing-Allow-Origin: all zero)', () => {
    expect(downloadCompression(null, { encodedBodySize: 0, decodedBodySize: 0 })).toBeNull();
    expect(downloadCompression(null, { encodedBodySize: 0, decodedBodySize: 100_000 })).toBeNull();
  });
});
