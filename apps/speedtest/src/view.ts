import { type QualityClass, qualityThresholds, type Requirement, type SpeedTestResult } from '@speedkit/speedtest';
import { formatBitsPerSecond, formatMs } from './format';

const card = (metric: string) => document.querySelector<HTMLElement>(`.card[data-metric="${metric}"]`);

/** Writes one headline card: value and a note (confidence, streams). */
export function setCard(metric: string, value: string, note = '\u00a0'): void {
  const element = card(metric);
  const valueElement = element?.querySelector('[data-value]');
  const noteElement = element?.querySelector('[data-note]');
  if (valueElement) {
    // The unit in a smaller span keeps the number readable and the card from overflowing on phones.
    const [number, ...unit] = value.split(' ');
    const unitElement = document.createElement('span');
    unitElement.className = 'card-unit';
    unitElement.textContent = unit.join(' ');
    valueElement.replaceChildren(number ?? '', ...(unit.length ? [unitElement] : []));
  }
  if (noteElement) noteElement.textContent = note;
}

const confidence = (level: string | undefined) => (level ? `${level} confidence` : '\u00a0');
const streamCount = (count: number) => `${count} ${count === 1 ? 'stream' : 'streams'}`;

/** Fills every card from a finished result. */
export function renderHeadline(result: SpeedTestResult): void {
  const { download, upload, latency, rpm } = result;
  setCard(
    'download',
    formatBitsPerSecond(download?.bitsPerSecond.value),
    download ? `${confidence(download.bitsPerSecond.level)} · ${streamCount(download.streams)}` : undefined,
  );
  setCard(
    'upload',
    formatBitsPerSecond(upload?.bitsPerSecond.value),
    upload ? `${confidence(upload.bitsPerSecond.level)} · ${streamCount(upload.streams)}` : undefined,
  );
  setCard('latency', formatMs(latency.idleMs.value), confidence(latency.idleMs.level));
  setCard('jitter', formatMs(latency.jitterMs), `${latency.idleMs.sampleCount} idle pings`);
  setCard('loadedDown', formatMs(latency.downloadLoadedMs?.value), confidence(latency.downloadLoadedMs?.level));
  setCard('loadedUp', formatMs(latency.uploadLoadedMs?.value), confidence(latency.uploadLoadedMs?.level));
  const rpmText = (value: number | null) => (value === null ? '—' : `${Math.round(value)}`);
  setCard(
    'rpm',
    rpm.overall === null ? '—' : `${rpmText(rpm.overall)} RPM`,
    `down ${rpmText(rpm.download)} · up ${rpmText(rpm.upload)}`,
  );
}

const classLabels: Record<QualityClass, string> = {
  great: 'Great',
  good: 'Good',
  average: 'Average',
  poor: 'Poor',
  bad: 'Bad',
};

export function renderQuality(result: SpeedTestResult): void {
  for (const [experience, quality] of Object.entries(result.quality)) {
    const element = document.querySelector<HTMLElement>(`[data-experience="${experience}"]`);
    if (!element) continue;
    element.textContent = classLabels[quality];
    element.dataset.quality = quality;
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
    'A class needs every figure listed; below "Poor" is "Bad". Loaded latency is the worse of the two directions. Packet loss is not measured.';
  container.replaceChildren(table, note);
}
