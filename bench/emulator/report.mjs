// From the emulator bench's measurements to its table and checks (pure).
import { goodputOfRateBps, median, relativeErrorPercent } from './stats.mjs';

/**
 * @typedef {{ kind: 'rtt', label: string, configuredMs: number, rttsMs: number[] }} RttResult
 * @typedef {{ kind: 'goodput', label: string, direction: 'down' | 'up', rateMbit: number, rttMs: number, bps: number, retransmits: number, emulatorCpuShare: number, forwardedBps: number, emulatorDropped?: number, cutFrames?: number, lossPercent?: number, checked?: boolean }} GoodputResult
 * @typedef {{ kind: 'loss', label: string, direction: 'down' | 'up', configuredPercent: number, lossPercent: number, packets: number, lostPackets: number, emulatorDropped: number, emulatorPackets: number, checked: boolean }} LossResult
 * @typedef {RttResult | GoodputResult | LossResult} Result
 */

/** The bench's limits (the issue's): ±0.5 ms idle RTT, 3 % goodput, 10 % relative loss. */
export const limits = { rttMs: 0.5, goodputPercent: 3, lossRelativePercent: 10 };

/**
 * One check per result; `ok` says whether it is within its limit.
 * @param {Result[]} results @param {typeof limits} [limit]
 */
export function checks(results, limit = limits) {
  return results.flatMap((r) => {
    if (r.kind === 'rtt') {
      const errorMs = median(r.rttsMs) - r.configuredMs;
      return [
        {
          ok: Math.abs(errorMs) <= limit.rttMs,
          text: `${r.label}: median RTT ${fmt(median(r.rttsMs), 2)} ms, configured ${r.configuredMs} ms (±${limit.rttMs} ms)`,
        },
      ];
    }
    if (r.kind === 'goodput') {
      // A baseline build's rows (checked: false) are there for comparison.
      if (r.checked === false) return [];
      const error = relativeErrorPercent(r.bps, goodputOfRateBps(r.rateMbit));
      return [
        {
          ok: Math.abs(error) <= limit.goodputPercent,
          text: `${r.label}: goodput ${fmt(r.bps / 1e6)} Mbit/s, ${signed(error)} % of rate × 1448/1514 (±${limit.goodputPercent} %)`,
        },
      ];
    }
    if (!r.checked) return [];
    const error = relativeErrorPercent(r.lossPercent, r.configuredPercent);
    return [
      {
        ok: Math.abs(error) <= limit.lossRelativePercent,
        text: `${r.label}: loss ${fmt(r.lossPercent, 3)} % over ${r.packets} packets, configured ${r.configuredPercent} % (±${limit.lossRelativePercent} % relative)`,
      },
    ];
  });
}

/** @param {Result[]} results */
export function markdownTable(results) {
  const lines = ['| measurement | configured | measured | error | notes |', '|---|---|---|---|---|'];
  for (const r of results) {
    if (r.kind === 'rtt') {
      const mid = median(r.rttsMs);
      const sorted = [...r.rttsMs].sort((a, b) => a - b);
      lines.push(
        `| ${r.label} | ${r.configuredMs} ms | ${fmt(mid, 2)} ms | ${signed(mid - r.configuredMs, 2)} ms | min ${fmt(sorted[0], 2)}, max ${fmt(sorted.at(-1) ?? Number.NaN, 2)} ms, ${r.rttsMs.length} pings |`,
      );
    } else if (r.kind === 'goodput') {
      const expected = goodputOfRateBps(r.rateMbit);
      const cpuPerGbit = r.emulatorCpuShare / (r.forwardedBps / 1e9);
      const cpuNote =
        r.forwardedBps > 0
          ? `emulator ${fmt(r.emulatorCpuShare * 100, 0)} % of a core = ${fmt(cpuPerGbit * 100, 0)} % per Gbit/s forwarded`
          : 'emulator bypassed';
      const lossNote = r.lossPercent
        ? `; emulator dropped ${r.emulatorDropped ?? 'n/a'} segments${Number.isFinite(r.cutFrames) ? `, cut ${r.cutFrames} super-packets` : ''}`
        : '';
      lines.push(
        `| ${r.label} | ${fmt(expected / 1e6)} Mbit/s | ${fmt(r.bps / 1e6)} Mbit/s | ${signed(relativeErrorPercent(r.bps, expected))} % | ${r.retransmits} retransmits${lossNote}; ${cpuNote}${r.checked === false ? ' (reported, not checked)' : ''} |`,
      );
    } else {
      lines.push(
        `| ${r.label} | ${r.configuredPercent} % | ${fmt(r.lossPercent, 3)} % | ${signed(relativeErrorPercent(r.lossPercent, r.configuredPercent))} % rel. | iperf3 receiver: ${r.lostPackets} of ${r.packets} lost; emulator dropped ${r.emulatorDropped} of ${r.emulatorPackets}${r.checked ? '' : ' (reported, not checked)'} |`,
      );
    }
  }
  return lines.join('\n');
}

/** @param {Result[]} results */
export function csv(results) {
  const rows = ['kind,label,configured,measured,error'];
  for (const r of results) {
    if (r.kind === 'rtt')
      rows.push(`rtt,"${r.label}",${r.configuredMs},${median(r.rttsMs)},${median(r.rttsMs) - r.configuredMs}`);
    else if (r.kind === 'goodput') {
      const expected = goodputOfRateBps(r.rateMbit);
      rows.push(`goodput,"${r.label}",${expected},${r.bps},${relativeErrorPercent(r.bps, expected)}`);
    } else
      rows.push(
        `loss,"${r.label}",${r.configuredPercent},${r.lossPercent},${relativeErrorPercent(r.lossPercent, r.configuredPercent)}`,
      );
  }
  return `${rows.join('\n')}\n`;
}

/** @param {number} value @param {number} [digits] */
function fmt(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
/** @param {number} value @param {number} [digits] */
function signed(value, digits = 1) {
  return Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(digits)}` : 'n/a';
}
