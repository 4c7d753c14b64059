import { describe, expect, it } from 'vitest';
import type { ScanResult } from '../../src/priority/layout';
import { AnyImageScanner, scanImage } from '../../src/priority/scanner';
import { fixtures, jpegFixtures } from './fixtures';

/** Seeded PRNG (mulberry32) so a failure reproduces; the seed is in the test name. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const magics = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  [0x52, 0x49, 0x46, 0x46, 1, 2, 3, 4, 0x57, 0x45, 0x42, 0x50],
  [0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x61, 0x76, 0x69, 0x66],
];

/** What every answer must satisfy, whatever the input: a known kind, and offsets inside the bytes, in stage order. */
function expectSane(result: ScanResult, length: number, label: string) {
  expect(['more', 'done', 'invalid'], label).toContain(result.kind);
  if (result.kind !== 'done') return;
  const { headerEndBytes, previewEndBytes = headerEndBytes, goodEndBytes = previewEndBytes } = result.layout;
  expect(headerEndBytes, label).toBeGreaterThan(0);
  expect(headerEndBytes <= previewEndBytes && previewEndBytes <= goodEndBytes && goodEndBytes <= length, label).toBe(
    true,
  );
}

/** Runs `scan` and fails with the input's label instead of letting an exception escape. */
function scanSafely(bytes: Uint8Array, chunkBytes: number, label: string): ScanResult {
  let result: ScanResult = { kind: 'more' };
  expect(() => {
    result = scanImage(bytes, undefined, chunkBytes);
  }, label).not.toThrow();
  expectSane(result, bytes.length, label);
  return result;
}

let inputsRun = 0;

describe('scanner on hostile input (never throws, never loops, offsets stay in bounds)', () => {
  it('survives 3000 random buffers behind each format magic (seed 1)', () => {
    const next = random(1);
    for (let n = 0; n < 3000; n++) {
      const magic = magics[n % magics.length] as number[];
      const bytes = Uint8Array.from({ length: Math.floor(next() * 2048) }, () => Math.floor(next() * 256));
      bytes.set(magic.slice(0, bytes.length));
      scanSafely(bytes, 1 + Math.floor(next() * 512), `random #${n}`);
      inputsRun++;
    }
  });

  it('survives 40 random byte mutations of every fixture (seed 2)', () => {
    const next = random(2);
    for (const f of fixtures) {
      for (let n = 0; n < 40; n++) {
        const bytes = f.bytes.slice();
        const edits = 1 + Math.floor(next() * 8);
        for (let e = 0; e < edits; e++) {
          // Bias towards the header, where the parser makes decisions, and towards FF (marker) bytes.
          const at = Math.floor(next() * Math.min(bytes.length, next() < 0.7 ? 4096 : bytes.length));
          bytes[at] = next() < 0.3 ? 0xff : Math.floor(next() * 256);
        }
        scanSafely(bytes, 1 + Math.floor(next() * 8192), `${f.name} mutation #${n}`);
        inputsRun++;
      }
    }
  });

  it('agrees with the whole file on every truncation at or past the point it needs (seed 3)', () => {
    const next = random(3);
    for (const f of jpegFixtures) {
      const full = scanImage(f.bytes);
      if (full.kind !== 'done') throw new Error(f.name);
      const { headerEndBytes, previewEndBytes, goodEndBytes } = full.layout;
      const needed = (goodEndBytes ?? headerEndBytes) + 2; // the marker that ends the last scan must be seen
      const cuts = [0, 1, 2, headerEndBytes - 1, headerEndBytes, needed - 1, needed, f.bytes.length - 1];
      for (let n = 0; n < 20; n++) cuts.push(Math.floor(next() * f.bytes.length));
      for (const cut of cuts.filter((c) => c >= 0)) {
        const result = scanSafely(f.bytes.subarray(0, cut), 1 + Math.floor(next() * 4096), `${f.name} cut at ${cut}`);
        inputsRun++;
        if (cut < headerEndBytes) expect(result.kind, `${f.name} cut at ${cut}`).toBe('invalid');
        else if (cut >= needed) expect(result).toEqual(full);
        else if (result.kind === 'done') {
          expect(result.layout.headerEndBytes).toBe(headerEndBytes);
          if (result.layout.previewEndBytes !== undefined) expect(result.layout.previewEndBytes).toBe(previewEndBytes);
        }
      }
    }
  });

  it('rejects a JPEG whose SOF segment claims 60 KB and an endless run of fill bytes', () => {
    const hugeSof = Uint8Array.from([0xff, 0xd8, 0xff, 0xc2, 0xea, 0x60, ...new Array(100).fill(0)]);
    expect(scanImage(hugeSof)).toEqual({ kind: 'invalid', reason: 'segment FFC2 is 60000 bytes long' });
    const fill = new Uint8Array(4 * 1024 * 1024).fill(0xff);
    fill.set([0xff, 0xd8]);
    expect(scanImage(fill, undefined, 65536).kind).toBe('invalid');
    inputsRun += 2;
  });

  it('ignores bytes pushed after its answer and keeps the answer', () => {
    const f = jpegFixtures[0];
    if (!f) throw new Error('no fixtures');
    const scanner = new AnyImageScanner();
    const first = scanner.push(f.bytes);
    expect(scanner.push(new Uint8Array([1, 2, 3]))).toBe(first);
    expect(scanner.finish()).toBe(first);
  });

  it('ran every input above', () => {
    console.log(`priority fuzz: ${inputsRun} inputs scanned without an exception`);
    expect(inputsRun).toBeGreaterThan(3000 + fixtures.length * 40);
  });
});
