import { describe, expect, it } from 'vitest';
import { blobMinBytes, runsFromBlob } from '../src/off-thread/run-way';

describe('runsFromBlob', () => {
  it('runs classic scripts of 64 KB or more from a blob: URL, smaller ones inline', () => {
    expect(blobMinBytes).toBe(65_536);
    expect(runsFromBlob(blobMinBytes - 1, false)).toBe(false);
    expect(runsFromBlob(blobMinBytes, false)).toBe(true);
    expect(runsFromBlob(2_331_591, false)).toBe(true);
    expect(runsFromBlob(0, false)).toBe(false);
  });

  it('runs modules inline whatever their size: from a blob: URL their relative imports would break', () => {
    expect(runsFromBlob(blobMinBytes, true)).toBe(false);
    expect(runsFromBlob(2_331_591, true)).toBe(false);
  });
});
