import {
  type Estimate,
  type QualityClass,
  qualityThresholds,
  type Requirement,
  type SpeedTestResult,
} from '@speedkit/speedtest';
import { formatBitsPerSecond, formatMs, streamCount } from './format';

/** Where a card's figure comes from: nothing yet, a live reading, the final figure, or a phase cut short by Stop. */
export type CardState = 'empty' | 'live' | 'final' | 'stopped';

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

/** After Stop or a failure: live readings stay visible but say they are not results. */
export function markUnfinishedCards(reason: 'stopped' | 'failed'): void {
  for (const metric of metrics) {
    const element = card(metric);
    if (element?.dataset.state === 'live') {
      // The last live reading stays for reference; note and state say it is not a result.
      element.dataset.state = 'stopped';
      const note = element.querySelector('[data-note]');
      if (note) note.textContent = `${reason}: not a result`;
    } else if (element?.dataset.state === 'empty') {
      setCard(metric, '—', reason === 'stopped' ? 'not measured (stopped)' : 'not measured', 'empty');
    }
  }
}

const confidence = (estimate: Estimate | null | undefined) => (estimate ? `${estimate.level} confidence` : '');

export function showLatencyCards(latency: SpeedTestResult['latency']): void {
  setCard('latency', formatMs(latency.idleMs.value), confidence(latency.idleMs), 'final');
  const stalled = latency.stalledPings > 0 ? ` · ${latency.stalledPings} stalled, left out` : '';
  setCard('jitter', formatMs(latency.jitterMs), `from ${latency.idleMs.sampleCount} idle pings${stalled}`, 'final');
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

export function showLoadedCard(direction: 'download' | 'upload', estimate: Estimate | null): void {
  const metric = direction === 'download' ? 'loadedDown' : 'loadedUp';
  if (estimate) setCard(metric, formatMs(estimate.value), confidence(estimate), 'final');
}

/** Fills every card from a finished result. */
export function renderHeadline(result: SpeedTestResult): void {
  const { download, upload, latency, rpm } = result;
  showLatencyCards(latency);
  if (download) showBandwidthCard('download', download);
  if (upload) showBandwidthCard('upload', upload);
  showLoadedCard('download', latency.downloadLoadedMs);
  showLoadedCard('upload', latency.uploadLoadedMs);
  const rpmText = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);
  setCard(
    'rpm',
    rpm.overall === null ? '—' : `${rpmText(rpm.overall)} RPM`,
    `down ${rpmText(rpm.download)} · up ${rpmText(rpm.upload)}`,
    'final',
  );
}

const classLabels: Record<QualityClass, string> = {
  great: 'Great',
  good: 'Good',
  average: 'Average',
  poor: 'Poor',
  bad: 'Bad',
};

export function renderQuality(result: SpeedTestResult | null): void {
  for (const element of document.querySelectorAll<HTMLElement>('[data-experience]')) {
    const quality = result?.quality[element.dataset.experience as keyof SpeedTestResult['quality']];
    element.textContent = quality ? classLabels[quality] : '—';
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
