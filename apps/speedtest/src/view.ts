import {
  type DirectionFailure,
  type Estimate,
  type Experience,
  type QualityClass,
  type QualityOutcome,
  qualityThresholds,
  type Requirement,
  type SpeedTestResult,
} from '@speedkit/speedtest';
import { failureCardNote, qualityUnknownBecause } from './direction-failure';
import { formatBitsPerSecond, formatMs, streamCount } from './format';

/**
 * Where a card's figure comes from: nothing yet, a live reading, a first reading the run will replace
 * (`provisional`), the final figure, a phase cut short by Stop or a failure (`stopped`: crossed out), a figure this
 * run does not measure (`unmeasured`), or a direction that ran to its end without a figure (`failed`: the rest of the
 * run stands).
 */
export type CardState = 'empty' | 'live' | 'provisional' | 'final' | 'stopped' | 'unmeasured' | 'failed';

const metrics = ['download', 'upload', 'latency', 'jitter', 'loadedDown', 'loadedUp', 'rpm'] as const;

const card = (metric: string) => document.querySelector<HTMLElement>(`.card[data-metric="${metric}"]`);

/** Writes one headline card: value, a note (confidence, streams), and its state for styling and tests. */
export function setCard(metric: string, value: string, note: string, state: CardState): void {
  const element = card(metric);
  if (!element) return;
  element.dataset.state = state;
  const valueElement = element.querySelector('[data-value]');
  const noteElement = element.querySelector('[data-note]');
  if (valueElement) {
    // The unit in a smaller span keeps the number readable and the card from overflowing on phones.
    const [number, ...unit] = value.split(' ');
    const unitElement = document.createElement('span');
    unitElement.className = 'card-unit';
    unitElement.textContent = unit.join(' ');
    valueElement.replaceChildren(number ?? '', ...(unit.length ? [unitElement] : []));
  }
  if (noteElement) noteElement.textContent = note || '\u00a0';
}

/** Every card back to "—": a new run never shows the previous run's figures next to its own. */
export function clearCards(): void {
  for (const metric of metrics) {
    setCard(metric, '—', 'waiting', 'empty');
    card(metric)?.setAttribute('aria-expanded', 'false');
  }
}

/**
 * After Stop or a failure: live readings stay visible, crossed out, with a note saying they are not results; cards
 * still waiting say they were not measured. A provisional idle latency stays as it is (muted, "first reading"): it is
 * a measurement, just not the final one. Returns how many cards it crossed out.
 */
export function markUnfinishedCards(reason: 'stopped' | 'failed'): number {
  let crossedOut = 0;
  for (const metric of metrics) {
    const element = card(metric);
    if (!element) continue;
    const state = element.dataset.state;
    if (state === 'live') {
      // The last reading stays for reference; note and state say it is not a result.
      element.dataset.state = 'stopped';
      const note = element.querySelector('[data-note]');
      if (note) note.textContent = `${reason}: not a result`;
      crossedOut++;
    } else if (state === 'empty') {
      setCard(metric, '—', reason === 'stopped' ? 'not measured (stopped)' : 'not measured', 'empty');
    }
  }
  return crossedOut;
}

const confidence = (estimate: Estimate | null | undefined) => (estimate ? `${estimate.level} confidence` : '');

/**
 * Idle latency and jitter. `provisional`: from the pings at the start, which the pings after the download replace;
 * the cards say so until then, so a first reading never passes for the result.
 */
export function showLatencyCards(latency: SpeedTestResult['latency'], provisional = false): void {
  const stalled = latency.stalledPings > 0 ? ` · ${latency.stalledPings} stalled, left out` : '';
  const count = latency.idleMs.sampleCount;
  if (provisional) {
    setCard('latency', formatMs(latency.idleMs.value), `first reading (${count} pings)`, 'provisional');
    setCard('jitter', formatMs(latency.jitterMs), `first reading (${count} pings)${stalled}`, 'provisional');
    return;
  }
  setCard('latency', formatMs(latency.idleMs.value), confidence(latency.idleMs), 'final');
  setCard(
    'jitter',
    formatMs(latency.jitterMs),
    `from ${count} idle ${count === 1 ? 'ping' : 'pings'}${stalled}`,
    'final',
  );
}

export function showBandwidthCard(
  direction: 'download' | 'upload',
  phase: NonNullable<SpeedTestResult['download']>,
): void {
  setCard(
    direction,
    formatBitsPerSecond(phase.bitsPerSecond.value),
    `${confidence(phase.bitsPerSecond)} · ${streamCount(phase.streams)}${phase.transport === 'websocket' ? ' (WebSocket)' : ''}`,
    'final',
  );
}

/** A direction that ran without a figure: its card says failed and why in short, its loaded latency had no load. */
export function showFailedDirection(direction: 'download' | 'upload', failure: DirectionFailure): void {
  setCard(direction, '—', failureCardNote(failure), 'failed');
  setCard(
    direction === 'download' ? 'loadedDown' : 'loadedUp',
    '—',
    `not measured (${direction} failed)`,
    'unmeasured',
  );
}

export function showLoadedCard(direction: 'download' | 'upload', estimate: Estimate | null): void {
  const metric = direction === 'download' ? 'loadedDown' : 'loadedUp';
  if (estimate) setCard(metric, formatMs(estimate.value), confidence(estimate), 'final');
}

const notMeasured = (metric: string) => setCard(metric, '—', 'not measured', 'unmeasured');

/**
 * Fills every card a result has a figure for. A direction the run did not measure says so; one a partial result lacks
 * is left as it stands (a live reading is then crossed out by `markUnfinishedCards`).
 */
export function renderHeadline(result: SpeedTestResult): void {
  const { latency, rpm } = result;
  showLatencyCards(latency);
  const missing = result.partial?.missing ?? [];
  if (missing.includes('settled-idle-pings')) {
    // The pings after the download never came: the figures are the first reading's, and stay marked as such.
    const first = `first reading only (${latency.idleMs.sampleCount} pings)`;
    setCard('latency', formatMs(latency.idleMs.value), first, 'provisional');
    setCard('jitter', formatMs(latency.jitterMs), first, 'provisional');
  }
  for (const direction of ['download', 'upload'] as const) {
    const phase = result[direction];
    const loaded = direction === 'download' ? latency.downloadLoadedMs : latency.uploadLoadedMs;
    const loadedMetric = direction === 'download' ? 'loadedDown' : 'loadedUp';
    const failure = result.directionFailures?.[direction];
    if (failure) {
      showFailedDirection(direction, failure);
      continue;
    }
    if (phase) showBandwidthCard(direction, phase);
    else if (!missing.includes(direction)) notMeasured(direction);
    if (loaded) showLoadedCard(direction, loaded);
    else if (!missing.includes(direction)) notMeasured(loadedMetric);
  }
  if (rpm.overall === null) {
    notMeasured('rpm');
    return;
  }
  const rpmText = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);
  setCard('rpm', `${rpmText(rpm.overall)} RPM`, `down ${rpmText(rpm.download)} · up ${rpmText(rpm.upload)}`, 'final');
}

const classLabels: Record<QualityOutcome, string> = {
  great: 'Great',
  good: 'Good',
  average: 'Average',
  poor: 'Poor',
  bad: 'Bad',
  'not-measured': 'Not measured',
};

export function renderQuality(result: SpeedTestResult | null): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-experience]')) {
    const experience = element.dataset.experience as Experience;
    const quality = result?.quality[experience];
    // "Not measured" because a direction failed is an unknown class, not a choice the run made: say which one.
    const unknownBecause = result ? qualityUnknownBecause(result, experience) : null;
    element.textContent = unknownBecause ? 'Unknown' : quality ? classLabels[quality] : '—';
    const note = document.querySelector(`[data-quality-note="${experience}"]`);
    if (note) note.textContent = unknownBecause ?? '';
    if (quality) element.dataset.quality = quality;
    else delete element.dataset.quality;
  }
}

function describe(requirement: Requirement): string {
  const parts: string[] = [];
  if (requirement.minDownloadBitsPerSecond)
    parts.push(`down ≥ ${formatBitsPerSecond(requirement.minDownloadBitsPerSecond)}`);
  if (requirement.minUploadBitsPerSecond) parts.push(`up ≥ ${formatBitsPerSecond(requirement.minUploadBitsPerSecond)}`);
  if (requirement.maxIdleLatencyMs) parts.push(`latency ≤ ${requirement.maxIdleLatencyMs} ms`);
  if (requirement.maxJitterMs) parts.push(`jitter ≤ ${requirement.maxJitterMs} ms`);
  if (requirement.maxLoadedLatencyMs) parts.push(`loaded latency ≤ ${requirement.maxLoadedLatencyMs} ms`);
  if (requirement.maxLossPct) parts.push(`packet loss ≤ ${requirement.maxLossPct} %`);
  return parts.join(', ');
}

/** The thresholds table, generated from the same data the classification uses. */
export function renderThresholds(container: HTMLElement): void {
  const names = { streaming: 'Video streaming', gaming: 'Online gaming', videoCalls: 'Video calls' };
  const table = document.createElement('table');
  table.innerHTML =
    '<thead><tr><th scope="col">Experience</th><th scope="col">Class</th><th scope="col">Needs</th></tr></thead>';
  const body = document.createElement('tbody');
  for (const [experience, levels] of Object.entries(qualityThresholds)) {
    for (const [level, requirement] of Object.entries(levels)) {
      const row = document.createElement('tr');
      for (const text of [
        names[experience as keyof typeof names],
        classLabels[level as QualityClass],
        describe(requirement),
      ]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        row.append(cell);
      }
      body.append(row);
    }
  }
  table.append(body);
  const note = document.createElement('p');
  note.className = 'hint';
  note.textContent =
    'A class needs every figure listed; below "Poor" is "Bad". Loaded latency and packet loss are the worse of the two directions; packet loss counts only where it was measured (the server has a TURN relay).';
  container.replaceChildren(table, note);
}
