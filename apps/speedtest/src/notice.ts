import { defaultLossPhase, lossPacketOverheadBytes, type SpeedTestOptions } from '@speedkit/speedtest';
import { formatBytes } from './format';

/** What the page decided about starting on its own, and why. */
export type AutostartDecision = 'start' | 'off-by-query' | 'save-data';

/** Pure: a page opened with `autostart=0`, or on a connection whose user asked to save data, waits for a click. */
export function autostartDecision(autostartQuery: boolean, saveData: boolean | undefined): AutostartDecision {
  if (!autostartQuery) return 'off-by-query';
  return saveData ? 'save-data' : 'start';
}

/** Pure: the most one run may move, from the per-direction budget and the directions measured (bytes). */
export const maxTestBytes = (options: Pick<SpeedTestOptions, 'maxBytesPerDirection' | 'directions'>) =>
  options.maxBytesPerDirection * options.directions.length;

/**
 * Pure: the most the packet-loss phase sends, or '' when it is off. It runs only when the server has a TURN relay,
 * and on a link slower than its pace sends fewer packets over the same time (the engine's `lossPacing`).
 */
export function lossNotice(options: Pick<SpeedTestOptions, 'packetLoss' | 'lossPackets'>): string {
  if (!options.packetLoss) return '';
  const { packetBytes, packetIntervalMs, drainMs } = defaultLossPhase;
  const wireBytes = options.lossPackets * 2 * (packetBytes + lossPacketOverheadBytes);
  // One direction after the other, each paced and then drained.
  const seconds = Math.round(((options.lossPackets * packetIntervalMs + drainMs) * 2) / 1000);
  return ` Then, if this server has a TURN relay, a packet-loss check sends up to ${options.lossPackets} numbered ${packetBytes}-byte packets each way through it over WebRTC (fewer on a slow link; at most about ${formatBytes(wireBytes)}, ${seconds} s).`;
}

/**
 * Pure: "up to 600.0 MB (300.0 MB per direction, 12 s at most each, up to 60 s where a round trip takes over 400 ms)":
 * the engine gives a long path `minRoundTripsPerDirection` round trips (TCP needs them to open its window), at most
 * five times the time budget. Round trips are in ms: with `timeMs=1000` the threshold is 33 ms, which read "0 s".
 */
const budgetText = (options: SpeedTestOptions) => {
  const seconds = (ms: number) => Number((ms / 1000).toFixed(1));
  const budgetMs = options.maxDurationPerDirectionMs;
  const longPath =
    options.minRoundTripsPerDirection > 0
      ? `, up to ${seconds(5 * budgetMs)} s where a round trip takes over ${roundTripText(budgetMs / options.minRoundTripsPerDirection)}`
      : '';
  return `up to ${formatBytes(maxTestBytes(options))} (${formatBytes(options.maxBytesPerDirection)} per direction, ${seconds(budgetMs)} s at most each${longPath})`;
};

/** Pure: a round trip for the notice: whole ms below a second ("33 ms"), else seconds to a tenth ("1.5 s"). */
export function roundTripText(ms: number): string {
  const wholeMs = Math.round(ms);
  return wholeMs < 1000 ? `${wholeMs} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** Pure: the sentence above the results, shown before any byte moves. */
export function dataNotice(decision: AutostartDecision, options: SpeedTestOptions): string {
  const budget = budgetText(options);
  const loss = lossNotice(options);
  if (decision === 'save-data') {
    return `Data saver is on, so the test did not start by itself. A run uses ${budget}.${loss} Press Start test when you are ready.`;
  }
  if (decision === 'off-by-query') return `A run uses ${budget}.${loss} Press Start test when you are ready.`;
  return `This test starts by itself and uses ${budget}; fast links use the most.${loss} Press Stop at any time.`;
}

/**
 * Pure: the notice once a run has ended (finished, stopped or failed): the next run's budget, and the button that
 * starts it. The notice of the page's opening ("Press Start test…", "Press Stop at any time.") names a button state
 * that no longer exists.
 */
export function dataNoticeAfterRun(options: SpeedTestOptions): string {
  const budget = budgetText(options);
  return `Another run uses ${budget}.${lossNotice(options)} Press Start again when you are ready.`;
}

/** Pure: the notice while a run started by the button is going. */
export function dataNoticeWhileRunning(options: SpeedTestOptions): string {
  const budget = budgetText(options);
  return `This run uses ${budget}; fast links use the most.${lossNotice(options)} Press Stop at any time.`;
}
