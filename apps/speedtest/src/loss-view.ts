import type { SpeedTestResult } from '@speedkit/speedtest';

type Loss = NonNullable<SpeedTestResult['loss']>['up'];

const percent = (value: number) => `${value < 10 ? value.toFixed(1) : Math.round(value)} %`;

/** "0.4 %" with what it rests on: "2 of 500 lost, 95 % interval 0.1–1.4 %". */
function describeLoss(loss: Loss): { value: string; note: string } {
  return {
    value: percent(loss.lossPct),
    note: `${loss.sent - loss.received} of ${loss.sent} lost · 95 % interval ${loss.lowPct.toFixed(1)}–${loss.highPct.toFixed(1)} %`,
  };
}

/**
 * Pure: the line shown instead of the loss row when loss was not measured, with what the idle pings say about loss
 * (a stalled ping waited for TCP to resend a lost packet); empty when loss was measured.
 */
export function lossNoteText(result: Pick<SpeedTestResult, 'lossNote' | 'latency'>): string {
  if (!result.lossNote) return '';
  const { stalledPings, idleMs } = result.latency;
  const stalled =
    stalledPings > 0
      ? ` ${stalledPings} of ${idleMs.sampleCount} idle pings waited for a lost packet to be resent, so this connection does lose packets.`
      : '';
  return `Packet loss not shown: ${result.lossNote}.${stalled}`;
}

/**
 * The packet-loss row: loss up and down once measured; hidden with the reason (no TURN relay, relay unreachable)
 * when it was not; empty while a test runs.
 */
export function renderLoss(result: SpeedTestResult | null): void {
  const row = document.getElementById('loss-row');
  const note = document.getElementById('loss-note');
  if (!row || !note) return;
  row.hidden = !result?.loss;
  note.textContent = result ? lossNoteText(result) : '';
  note.hidden = !note.textContent;
  for (const direction of ['up', 'down'] as const) {
    const cell = row.querySelector<HTMLElement>(`[data-loss="${direction}"]`);
    const loss = result?.loss?.[direction];
    if (!cell) continue;
    const figures = loss ? describeLoss(loss) : { value: '—', note: '' };
    const value = cell.querySelector('[data-value]');
    const detail = cell.querySelector('[data-note]');
    if (value) value.textContent = figures.value;
    if (detail) detail.textContent = figures.note;
  }
}
