import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { speedlineSpeedIndex, visualMetrics } from '../frames.mjs';
import { histogramOf, speedIndex, visualProgress } from '../speed-index.mjs';

const widthPx = 300;
const heightPx = 200;

/** A white frame with the first `shown` of three equal coloured blocks painted, as JPEG (as the screencast sends). */
async function frameWith(shown: number): Promise<Buffer> {
  const colours = [
    [200, 30, 30],
    [30, 160, 40],
    [20, 40, 200],
  ];
  const pixels = Buffer.alloc(widthPx * heightPx * 3, 255);
  for (let block = 0; block < shown; block++) {
    for (let y = 20; y < 180; y++) {
      for (let x = 10 + block * 95; x < 95 + block * 95; x++) {
        pixels.set(colours[block], (y * widthPx + x) * 3);
      }
    }
  }
  return sharp(pixels, { raw: { width: widthPx, height: heightPx, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/** Frames every 50 ms (20 frames/s) of blocks revealed at the given times (ms), until `endMs`. */
async function revealFrames(revealMs: number[], endMs: number) {
  const jpegs = await Promise.all([0, 1, 2, 3].map(frameWith));
  const frames = [];
  for (let timeMs = 50; timeMs <= endMs; timeMs += 50) {
    frames.push({ timeMs, jpeg: jpegs[revealMs.filter((at) => at <= timeMs).length] });
  }
  return frames;
}

describe('visualProgress', () => {
  it('is 0 at the start, 1 at the end and proportional to the histogram change in between', () => {
    const start = new Uint32Array(768);
    const end = new Uint32Array(768);
    end[10] = 100;
    end[256 + 20] = 100;
    const half = new Uint32Array(768);
    half[10] = 50;
    half[256 + 20] = 50;
    expect(visualProgress(start, start, end)).toBe(0);
    expect(visualProgress(end, start, end)).toBe(1);
    expect(visualProgress(half, start, end)).toBe(0.5);
  });
  it('leaves near-white pixels out of the histogram', () => {
    const histogram = histogramOf(new Uint8Array([255, 255, 255, 10, 20, 30]), 3);
    expect(histogram.reduce((sum, n) => sum + n, 0)).toBe(3);
  });
});

describe('speedIndex on a synthetic page with blocks revealed at known times', () => {
  it('equals the analytic value within 50 ms', async () => {
    // Three equal blocks at 200, 500 and 900 ms: SI = 200 + 2/3 × 300 + 1/3 × 400 = 533 ms.
    const frames = await revealFrames([200, 500, 900], 1500);
    const metrics = await visualMetrics(frames);
    expect(Math.abs(metrics.speedIndexMs - 533.3)).toBeLessThan(50);
    expect(metrics.firstVisualChangeMs).toBe(200);
    expect(metrics.visuallyComplete100Ms).toBe(900);
    expect(metrics.visuallyComplete85Ms).toBe(900);
  });
  it('is the time of the only change when everything paints at once', () => {
    const histogram = new Uint32Array(768);
    histogram[5] = 1000;
    const result = speedIndex([
      { timeMs: 100, histogram: new Uint32Array(768) },
      { timeMs: 700, histogram },
      { timeMs: 1000, histogram },
    ]);
    expect(result.speedIndexMs).toBe(700);
    expect(result.visuallyComplete100Ms).toBe(700);
  });
});

describe('speedIndex against speedline-core (Lighthouse) on the same frames', () => {
  for (const reveal of [
    [200, 500, 900],
    [100, 150, 2000],
    [800, 1200, 1250],
  ]) {
    it(`agrees within 5 % for blocks at ${reveal.join(', ')} ms`, async () => {
      const frames = await revealFrames(reveal, 2500);
      const ours = (await visualMetrics(frames)).speedIndexMs;
      const theirs = await speedlineSpeedIndex(frames);
      expect(Math.abs(ours - theirs) / theirs).toBeLessThan(0.05);
    });
  }
});
