// Decoding screencast frames: histograms for Speed Index, and small thumbnails for the report's filmstrips.
import sharp from 'sharp';
import speedline from 'speedline-core';
import { histogramOf, speedIndex } from './speed-index.mjs';

/** @param {Buffer} jpeg */
export async function histogramOfJpeg(jpeg) {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return histogramOf(data, info.channels);
}

/**
 * Visual metrics of one load from its frames (ms from navigation start). Identical consecutive frames are decoded
 * once.
 * @param {{ timeMs: number, jpeg: Buffer }[]} frames
 */
export async function visualMetrics(frames) {
  if (frames.length === 0) throw new Error('no screen frames were captured during the load');
  const decoded = [];
  /** @type {{ jpeg: Buffer, histogram: Uint32Array } | null} */
  let previous = null;
  for (const frame of frames) {
    /** @type {Uint32Array} */
    const histogram = previous?.jpeg.equals(frame.jpeg) ? previous.histogram : await histogramOfJpeg(frame.jpeg);
    previous = { jpeg: frame.jpeg, histogram };
    decoded.push({ timeMs: frame.timeMs, histogram });
  }
  // Nothing but near-white pixels in the last frame: the page showed nothing.
  const blankAtEnd = decoded[decoded.length - 1].histogram.every((count) => count === 0);
  return { ...speedIndex(decoded), blankAtEnd };
}

/**
 * The same frames through speedline-core (what Lighthouse uses), as an independent Speed Index. Frames are handed
 * over as trace screenshot events; speedline adds its own white frame at the time origin.
 * @param {{ timeMs: number, jpeg: Buffer }[]} frames
 */
export async function speedlineSpeedIndex(frames) {
  const originUs = 1_000_000; // speedline treats a zero time origin as "none"
  const events = frames.map((frame) => ({
    name: 'Screenshot',
    cat: 'disabled-by-default-devtools.screenshot',
    ph: 'O',
    pid: 1,
    tid: 1,
    ts: originUs + Math.round(frame.timeMs * 1000),
    args: { snapshot: frame.jpeg.toString('base64') },
  }));
  // speedline reads name, ts and args of screenshot events; its type also asks for `dur`, which they do not have.
  const traceEvents = /** @type {import('speedline-core').TraceEvent[]} */ (/** @type {unknown} */ (events));
  const result = await speedline(traceEvents, { timeOrigin: originUs, include: 'speedIndex' });
  return result.speedIndex;
}

/**
 * One thumbnail per distinct frame, as data URIs, and for each 100 ms step up to `untilMs` the index of the frame
 * on screen then (the latest at or before that time; -1 = still blank).
 * @param {{ timeMs: number, jpeg: Buffer }[]} frames @param {number} untilMs @param {number} widthPx
 */
export async function filmstrip(frames, untilMs, widthPx, stepMs = 100) {
  /** @type {string[]} */
  const images = [];
  /** @type {number[]} */
  const frameOf = [];
  const indexOf = new Map();
  const steps = Math.min(300, Math.floor(untilMs / stepMs) + 1);
  let cursor = -1;
  for (let step = 0; step < steps; step++) {
    const atMs = step * stepMs;
    while (cursor + 1 < frames.length && frames[cursor + 1].timeMs <= atMs) cursor++;
    if (cursor < 0) {
      frameOf.push(-1);
      continue;
    }
    if (!indexOf.has(cursor)) {
      const thumb = await sharp(frames[cursor].jpeg).resize({ width: widthPx }).jpeg({ quality: 60 }).toBuffer();
      indexOf.set(cursor, images.length);
      images.push(`data:image/jpeg;base64,${thumb.toString('base64')}`);
    }
    frameOf.push(indexOf.get(cursor));
  }
  return { stepMs, images, frameOf };
}
