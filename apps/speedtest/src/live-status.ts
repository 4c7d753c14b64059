import type { Phase, ProgressEvent } from '@speedkit/speedtest';
import { formatBitsPerSecond, formatBytes, formatMs, streamCount } from './format';
import { setCard } from './view';

const phaseNames: Record<Phase, string> = {
  latency: 'Idle latency',
  download: 'Download',
  upload: 'Upload',
  loss: 'Packet loss (through the TURN relay)',
};
export const phaseAnnouncements: Record<Phase, string> = {
  latency: 'Measuring idle latency.',
  download: 'Measuring download.',
  upload: 'Measuring upload.',
  loss: 'Measuring packet loss.',
};

/**
 * Progress is redrawn at most once per `progressRedrawMs`: the engine reports after every ping, a few ms apart, and a
 * repaint each time would compete for the CPU with what the pings measure (this matters on small machines).
 */
const progressRedrawMs = 200;

/**
 * A card whose phase has reported its figure (final, or a first reading) or its failure: a late redraw must not make
 * it live again.
 */
const isFinal = (metric: string) => {
  const state = document.querySelector<HTMLElement>(`.card[data-metric="${metric}"]`)?.dataset.state;
  return state === 'final' || state === 'provisional' || state === 'failed';
};

/**
 * The running test on screen: a one-line status and live card values, redrawn at most every 200 ms, and a separate
 * announcer for screen readers that hears phases and outcomes only (a handful of messages per run). The visible
 * status line is not a live region, so it can update every redraw without flooding the listener.
 */
export class LiveStatus {
  #pending: ProgressEvent | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #announcedPhase: Phase | null = null;
  phase: Phase = 'latency';

  constructor(
    readonly status: HTMLElement,
    readonly announcer: HTMLElement,
    readonly progress: HTMLProgressElement,
  ) {}

  announce(text: string): void {
    this.announcer.textContent = text;
  }

  /** Whether this run has announced any phase yet (a resume before that has nothing to resume). */
  get started(): boolean {
    return this.#announcedPhase !== null;
  }

  queue(event: ProgressEvent): void {
    this.phase = event.phase;
    if (this.#announcedPhase !== event.phase) {
      this.#announcedPhase = event.phase;
      this.announce(phaseAnnouncements[event.phase]);
    }
    this.#pending = event;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      if (this.#pending) this.#show(this.#pending);
      this.#pending = null;
    }, progressRedrawMs);
  }

  /** A final or paused status must not be overwritten by a progress redraw still queued. */
  drop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pending = null;
  }

  reset(): void {
    this.drop();
    this.#announcedPhase = null;
    this.phase = 'latency';
    this.progress.value = 0;
    this.status.classList.remove('problem');
  }

  #show(event: ProgressEvent): void {
    this.progress.value = event.fraction;
    const parts = [phaseNames[event.phase]];
    if (event.currentBitsPerSecond !== null) parts.push(formatBitsPerSecond(event.currentBitsPerSecond));
    if (event.streams) parts.push(streamCount(event.streams));
    parts.push(`${formatBytes(event.bytes.download + event.bytes.upload)} used`);
    this.status.textContent = parts.join(' · ');
    if (event.phase === 'latency' && !isFinal('latency')) {
      setCard('latency', formatMs(event.currentLatencyMs), 'measuring…', 'live');
    }
    if (
      (event.phase === 'download' || event.phase === 'upload') &&
      event.currentBitsPerSecond !== null &&
      !isFinal(event.phase)
    ) {
      setCard(event.phase, formatBitsPerSecond(event.currentBitsPerSecond), 'measuring…', 'live');
    }
  }
}
