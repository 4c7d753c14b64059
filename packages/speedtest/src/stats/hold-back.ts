/**
 * What losses hold back, and how much a figure's window misses of it (pure).
 *
 * TCP hands a stream's bytes over in order, so everything behind a lost segment waits until its retransmission lands,
 * about one loaded round trip R later. With losses at λ per second on a stream, the bytes waiting at any instant are
 * those since the earliest loss not yet repaired, on average r·R·g(λR) for a stream of rate r, where
 * g(x) = 1 − (1 − e^−x)/x: near x/2 when losses are rare (a hold now and then), near 1 when every round trip has some
 * (a stream always a round trip behind its wire). The figure counts bytes as the page receives them, so when the
 * loaded round trip grows across its window (a second stream's queue building) the bytes held back at its end exceed
 * those at its start, and the figure reads the link low by that difference: 100/100 Mbit/s, 80 ms, 0.5 % loss, round
 * trip 100 → 200 ms over a 3.5 s window, −2 % of a full wire (bench/accuracy/findings.md, 2026-11-29).
 * Only the measured loss (the loss phase, through a TURN relay) gives λ; without it nothing is corrected.
 */

import type { BandwidthResult } from '../types';
import { median } from './summary';

/** Payload of one segment (bytes): a 1500-byte IP packet less the IPv4 and TCP headers with timestamps. */
const segmentBytes = 1448;

/**
 * A correction that would move the figure by more than this share is not applied: the model holds for a window that
 * spans seconds; one shorter than the change of its own round trip says nothing the model can fix.
 */
const maxCorrection = 0.15;

/** What the correction read: the inputs and the factor the figure was multiplied by. */
export interface HoldBackCorrection {
  /** Loss measured in this direction (percent, 0..100). */
  lossPercent: number;
  /** Loaded round trip at the window's start and end (ms): the median of the pings sent around each. */
  startRttMs: number;
  endRttMs: number;
  /** The figure is the window's mean times this (dimensionless). */
  factor: number;
  /** The figure before the correction (bit/s). */
  uncorrectedBitsPerSecond: number;
}

/**
 * Mean time (ms) a stream's bytes wait behind losses at a loaded round trip of `rttMs`: R·g(λR), λ the stream's
 * losses per second.
 */
export function heldBackMs(rttMs: number, lossesPerSecond: number): number {
  const x = lossesPerSecond * (rttMs / 1000);
  if (!(x > 0) || !(rttMs > 0)) return 0;
  return rttMs * (1 - -Math.expm1(-x) / x);
}

/**
 * Losses per stream and loaded round trip, at the window's end, from which holds run into each other. Rarer losses
 * hold bytes back now and then, each hold a dip in the intervals, and the window already ends before a trailing dip
 * (bandwidth-summary.ts `withoutTrailingDips`): correcting those too counted them twice (10/2 Mbit/s, 60 ms, 1 %, 1.3
 * losses per round trip: +1.4 % read +4.2 %, `s58-unseen`; replayed, −1.1 → +1.8 %). At two or more a stream is
 * behind some loss 86 % of the time (1 − e^−2), its intervals all read alike, and no dip shows what the model puts
 * back.
 */
const minLossesPerRoundTrip = 2;

/**
 * The factor that puts back what the window's growing hold-back kept from it: T / (T − (held at end − held at start)),
 * each held amount in ms of the figure's rate. 1 when the inputs cannot carry a correction (no loss, a non-finite
 * round trip, a window of no length), when losses at the window's end are too rare for holds to run into each other
 * (`minLossesPerRoundTrip`), or when it would exceed `maxCorrection`.
 */
export function holdBackFactor(input: {
  bitsPerSecond: number;
  streams: number;
  /** Measured loss in this direction (0..1). */
  lossRate: number;
  windowMs: number;
  startRttMs: number;
  endRttMs: number;
}): number {
  const { bitsPerSecond, streams, lossRate, windowMs, startRttMs, endRttMs } = input;
  if (!(lossRate > 0) || !(bitsPerSecond > 0) || !(streams >= 1) || !(windowMs > 0)) return 1;
  if (!Number.isFinite(startRttMs) || !Number.isFinite(endRttMs)) return 1;
  const lossesPerSecond = (lossRate * bitsPerSecond) / streams / 8 / segmentBytes;
  if (lossesPerSecond * (endRttMs / 1000) < minLossesPerRoundTrip) return 1;
  const grewMs = heldBackMs(endRttMs, lossesPerSecond) - heldBackMs(startRttMs, lossesPerSecond);
  const factor = windowMs / (windowMs - grewMs);
  return factor > 0 && Math.abs(factor - 1) <= maxCorrection ? factor : 1;
}

/** Loaded pings sent within this long of a window's start (either side) give its starting round trip (ms). */
const startReachMs = 400;
/** Loaded pings sent within this long before a window's end give its final round trip (ms). */
const endReachMs = 800;

/**
 * The loaded round trip (ms) at a window's start and end: the median of the pings sent around each (`startReachMs`,
 * `endReachMs`, on the pings' `startMs` clock), NaN where none was sent.
 */
export function windowRoundTrips(
  pings: readonly { startMs: number; pingMs: number }[],
  window: { startMs: number; endMs: number },
): { startRttMs: number; endRttMs: number } {
  const medianOf = (fromMs: number, toMs: number) => {
    const values = pings
      .filter((ping) => ping.startMs >= fromMs && ping.startMs <= toMs && Number.isFinite(ping.pingMs))
      .map((ping) => ping.pingMs);
    return values.length > 0 ? median(values) : Number.NaN;
  };
  return {
    startRttMs: medianOf(window.startMs - startReachMs, window.startMs + startReachMs),
    endRttMs: medianOf(window.endMs - endReachMs, window.endMs),
  };
}

/**
 * Whether a figure is corrected for what losses held back: uploads over WebSockets only. HTTP uploads no: the
 * server's reads of each request leave a stretch with nothing read (a hold behind a loss) out of the figure's time
 * (`stats/upload-spans.ts`, stalls), which already puts the hold back, and correcting as well counted it twice
 * (50/10 Mbit/s, 40 ms, 2 %, round trip 57 → 310 ms: +1.0 % read +6.8 %, `s58-full2`); a mix of both is left alone
 * too. Downloads no: the correction brought the bench's own 100/100 Mbit/s, 80 ms downloads from −2 … −3 % to within
 * 1 %, but on links it was not developed on it read further from iperf3 than the figure it corrected: 7 of 19 within
 * 1.5 % against 13 of 19 (20/5 Mbit/s 80 ms 1 %: −2.1 … +1.2 % read +2.2 … +9.7 %; 40/8 120 ms, 150/150 50 ms,
 * 75/15 70 ms, 10/2 60 ms; bench/accuracy/findings.md, `s58-unseen`, `s59-wsab`), where the wire in the window showed
 * the page close to it already. The uploads over sockets it corrects read within 0–1 % after it on 150/150 50 ms
 * (−5.0, −5.1 % before), a link it was not developed on either.
 */
export function holdBackApplies(direction: 'download' | 'upload', result: BandwidthResult): boolean {
  return direction === 'upload' && result.transport === 'websocket';
}

/**
 * The direction's figure with the hold-back its window missed put back, when the loss phase measured this direction
 * (`lossPercent`), the figure can have missed it (`holdBackApplies`), and the loaded pings show the round trip at both
 * ends of the headline's window; the figure as it was otherwise. The estimate's interval moves with it.
 */
export function correctedForHoldBack(
  direction: 'download' | 'upload',
  result: BandwidthResult,
  lossPercent: number | null,
  loadedPings: readonly { startMs: number; pingMs: number }[],
): BandwidthResult {
  const window = result.headlineWindowMs;
  if (lossPercent === null || !(lossPercent > 0) || !window || !holdBackApplies(direction, result)) return result;
  const { startRttMs, endRttMs } = windowRoundTrips(loadedPings, window);
  const estimate = result.bitsPerSecond;
  const factor = holdBackFactor({
    bitsPerSecond: estimate.value,
    streams: result.streams,
    lossRate: lossPercent / 100,
    windowMs: window.endMs - window.startMs,
    startRttMs,
    endRttMs,
  });
  if (factor === 1) return result;
  return {
    ...result,
    bitsPerSecond: {
      ...estimate,
      value: estimate.value * factor,
      low: estimate.low * factor,
      high: estimate.high * factor,
    },
    holdBack: { lossPercent, startRttMs, endRttMs, factor, uncorrectedBitsPerSecond: estimate.value },
  };
}
