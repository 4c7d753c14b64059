import { phaseTimeBudgetMs } from './phases/bandwidth-request';
import { defaultLossPhase } from './phases/loss';
import type { SpeedTestOptions } from './types';

/** The parts of a run the progress bar steps through, in order. */
export type ProgressPart = 'startPings' | 'download' | 'settledPings' | 'upload' | 'loss';

/**
 * A generous time per idle ping, warm-up pings included (ms): a round trip plus the page's work around it; the
 * pings are a small share of a run, so the guess barely moves the bar.
 */
const expectedPingMs = 50;

/** Connecting the two WebRTC peers through the relay before the loss phase sends (ms), a typical time. */
const expectedLossConnectMs = 1000;

/**
 * Pure: each part's share of the progress bar (shares sum to 1), from the time it is expected to take (ms): the
 * pings' count, each direction's time budget, and the loss phase's pacing. Equal shares made the bar reach 94 %
 * before a 15 s loss phase and then crawl; a direction that settles early still jumps ahead, which is the truth
 * (less is left). Once the start pings have measured the round trip (`idleRttMs`), the engine weighs again: a long
 * path's directions get up to five times their budget (`phaseTimeBudgetMs`) and each ping takes a round trip, and
 * with the configured budget a 1 s path's bar planned 12 s per direction where each took about 30.
 * @param idleRttMs median idle round trip (ms); NaN before it is known
 */
export function progressWeights(
  options: Pick<
    SpeedTestOptions,
    | 'idlePings'
    | 'directions'
    | 'maxDurationPerDirectionMs'
    | 'minRoundTripsPerDirection'
    | 'packetLoss'
    | 'lossPackets'
  >,
  idleRttMs = Number.NaN,
): Record<ProgressPart, number> {
  const downloads = options.directions.includes('download');
  const { packetIntervalMs, drainMs } = defaultLossPhase;
  const pingMs = Number.isFinite(idleRttMs) ? Math.max(expectedPingMs, idleRttMs) : expectedPingMs;
  const directionMs = phaseTimeBudgetMs(options, idleRttMs);
  const expectedMs: Record<ProgressPart, number> = {
    startPings: (Math.ceil(options.idlePings / 2) + 2) * pingMs,
    download: downloads ? directionMs : 0,
    // After the download only; each waits for the link to drain first (about a loaded round trip).
    settledPings: downloads ? (options.idlePings + 2) * pingMs : 0,
    upload: options.directions.includes('upload') ? directionMs : 0,
    // One direction after the other, each paced and then drained (phases/loss.ts).
    loss: options.packetLoss ? 2 * (options.lossPackets * packetIntervalMs + drainMs) + expectedLossConnectMs : 0,
  };
  const totalMs = Object.values(expectedMs).reduce((sum, ms) => sum + ms, 0);
  const shares = { ...expectedMs };
  for (const part of Object.keys(shares) as ProgressPart[]) shares[part] = totalMs > 0 ? expectedMs[part] / totalMs : 0;
  return shares;
}

/**
 * Pure: the loss phase's share done (0..1) from the share of packets sent: the drain after each direction's packets
 * is time too, so sending the last packet is not the end (the bar reached 100 % 1.5 s before "Done").
 */
export function lossTimeFraction(packetFraction: number, lossPackets: number): number {
  const sendMs = lossPackets * defaultLossPhase.packetIntervalMs;
  const perDirectionMs = sendMs + defaultLossPhase.drainMs;
  const clamped = Math.min(1, Math.max(0, packetFraction));
  // Directions run one after the other: the first's drain has passed once the second starts sending.
  const directionsDone = Math.min(1, Math.floor(clamped * 2));
  const withinDirection = clamped * 2 - directionsDone;
  const doneMs = directionsDone * perDirectionMs + withinDirection * sendMs;
  return doneMs / (2 * perDirectionMs);
}
