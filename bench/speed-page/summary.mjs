// From runs to what the report says, free of I/O: per profile and variant the median and 95 % bootstrap interval
// of every metric, the representative run (median Speed Index), and each feature's change against "Worker, all
// off" (the cost of the hop: "Worker, all off" against "Origin direct"), written as sentences.
import { bootstrapMedian, compare, median } from './stats.mjs';

/** Metrics with an interval, in table order; `unit` decides how they are printed. */
export const metrics = [
  { key: 'ttfbMs', label: 'TTFB', unit: 'ms' },
  { key: 'fcpMs', label: 'FCP', unit: 'ms' },
  { key: 'lcpMs', label: 'LCP', unit: 'ms' },
  { key: 'speedIndexMs', label: 'Speed Index', unit: 'ms' },
  { key: 'visuallyComplete85Ms', label: 'Visually complete 85 %', unit: 'ms' },
  { key: 'visuallyComplete100Ms', label: 'Visually complete', unit: 'ms' },
  { key: 'tbtMs', label: 'TBT', unit: 'ms' },
  { key: 'cls', label: 'CLS', unit: '' },
  { key: 'totalBytes', label: 'Bytes', unit: 'bytes' },
  { key: 'requests', label: 'Requests', unit: 'count' },
];

/**
 * The metrics a feature's sentence names, in order: what a visitor waits for (LCP, Speed Index, most of the view,
 * first paint), then the cost.
 */
const headline = ['lcpMs', 'speedIndexMs', 'visuallyComplete85Ms', 'fcpMs', 'totalBytes', 'tbtMs'];
const headlineLabels = headline.map((key) => metrics.find((m) => m.key === key)?.label ?? key).join(', ');
/** Fewer runs than this give no usable interval: no claim is made then, whatever the medians say. */
export const minRunsForClaim = 3;
/** Changes smaller than this are not claimed even with separate intervals (e.g. a few bytes of headers). */
export const minChangePct = 1;

/** @param {number} value @param {string} unit */
export function formatValue(value, unit) {
  if (!Number.isFinite(value)) return 'n/a';
  if (unit === 'ms') return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${Math.round(value)} ms`;
  if (unit === 'bytes') {
    if (value >= 1e6) return `${(value / 1e6).toFixed(2)} MB`;
    return value >= 1e3 ? `${Math.round(value / 1e3)} KB` : `${Math.round(value)} B`;
  }
  if (unit === 'count') return String(Math.round(value));
  return value.toFixed(3);
}

/** @param {number} pct */
const formatPct = (pct) =>
  Number.isFinite(pct) ? `${pct < 0 ? '−' : '+'}${Math.abs(pct).toFixed(0)} %` : 'no % of a zero';

/**
 * @typedef {object} SummaryRow one variant on one profile
 * @property {string} variant
 * @property {string} label
 * @property {string | null} feature
 * @property {string} protocol
 * @property {number} runs
 * @property {number} failedRuns
 * @property {number} labRetriedRuns counted runs with a request the lab's front sent twice (wrangler dev dropped it)
 * @property {Record<string, { median: number, low: number, high: number, runs: number }>} stats
 * @property {Record<string, { bytes: number, requests: number }>} byClass
 * @property {number | null} representativeRun
 * @property {[timeMs: number, percent: number][]} [progress] the representative run's curve (added by writeResults)
 */

/**
 * @param {any[]} runs every measured run: { profile, variant, run, ...metrics }
 * @param {{ id: string, label: string, feature: string | null }[]} variants
 * @param {string[]} profileNames
 */
export function summarise(runs, variants, profileNames) {
  return profileNames.map((profile) => {
    /** @type {SummaryRow[]} */
    const rows = variants.map((variant) => {
      const mine = runs.filter((r) => r.profile === profile && r.variant === variant.id && !r.error);
      /** @type {Record<string, { median: number, low: number, high: number, runs: number }>} */
      const stats = {};
      for (const metric of metrics) stats[metric.key] = bootstrapMedian(mine.map((r) => r[metric.key]));
      // The run at the (lower) median Speed Index: its filmstrip and curve stand for the variant.
      const bySpeedIndex = [...mine].sort((a, b) => a.speedIndexMs - b.speedIndexMs);
      const representative = bySpeedIndex[Math.floor((bySpeedIndex.length - 1) / 2)];
      /** @type {SummaryRow['byClass']} */
      const byClass = {};
      for (const name of Object.keys(mine[0]?.byClass ?? {})) {
        byClass[name] = {
          bytes: median(mine.map((r) => r.byClass[name].bytes)),
          requests: median(mine.map((r) => r.byClass[name].requests)),
        };
      }
      return {
        variant: variant.id,
        label: variant.label,
        feature: variant.feature,
        protocol: mine[0]?.protocol ?? '',
        runs: mine.length,
        failedRuns: runs.filter((r) => r.profile === profile && r.variant === variant.id && r.error).length,
        labRetriedRuns: mine.filter((r) => (r.labRetries ?? []).length > 0).length,
        stats,
        byClass,
        representativeRun: representative?.run ?? null,
      };
    });
    return { profile, rows, findings: findingsFor(profile, rows) };
  });
}

/**
 * Sentences for one profile: the hop's cost, then each feature against Worker-all-off.
 * @param {string} profile @param {SummaryRow[]} rows
 */
function findingsFor(profile, rows) {
  const find = (/** @type {string} */ id) => rows.find((row) => row.variant === id);
  const pairs = [];
  const origin = find('origin');
  const off = find('worker-off');
  if (origin && off)
    pairs.push({ subject: 'The Worker hop (all off vs origin direct)', baseline: origin, variant: off });
  if (off) {
    for (const row of rows.filter((r) => r.feature !== null))
      pairs.push({ subject: row.label, baseline: off, variant: row });
  }
  return pairs.map(({ subject, baseline, variant }) => {
    const changes = headline.map((key) => {
      const unit = metrics.find((m) => m.key === key)?.unit ?? '';
      const compared = compare(baseline.stats[key], variant.stats[key]);
      const enoughRuns = Math.min(baseline.stats[key].runs, variant.stats[key].runs) >= minRunsForClaim;
      const { changePct } = compared;
      const claim = compared.claim && enoughRuns && Math.abs(changePct) >= minChangePct;
      const label = metrics.find((m) => m.key === key)?.label ?? key;
      const both = Number.isFinite(baseline.stats[key].median) && Number.isFinite(variant.stats[key].median);
      const text = `${label} ${formatValue(baseline.stats[key].median, unit)} → ${formatValue(variant.stats[key].median, unit)} (${both ? formatPct(changePct) : 'nothing to compare'})`;
      return { metric: key, changePct, claim, text };
    });
    const claimed = changes.filter((c) => c.claim);
    // A side whose every run failed has nothing to compare: said so, not as medians of "n/a" against "a zero".
    const failedSides = [baseline, variant].filter((row) => row.runs === 0);
    const sentence =
      failedSides.length > 0
        ? `${subject}: no claim on ${profile} (${failedSides.map((row) => `${row.label}: all ${row.failedRuns} run(s) failed`).join('; ')}).`
        : claimed.length > 0
          ? `${subject}: ${claimed.map((c) => c.text).join(', ')} on ${profile}.`
          : Math.min(baseline.runs, variant.runs) < minRunsForClaim
            ? `${subject}: no claim on ${profile} (fewer than ${minRunsForClaim} runs; medians ${changes.map((c) => c.text).join(', ')}).`
            : `${subject}: no measurable difference on ${profile} (${headlineLabels}: intervals overlap or the change is under ${minChangePct} %).`;
    const why = (/** @type {{ changePct: number }} */ c) =>
      Math.min(baseline.runs, variant.runs) < minRunsForClaim
        ? 'too few runs'
        : !Number.isFinite(c.changePct)
          ? 'zero baseline'
          : Math.abs(c.changePct) < minChangePct
            ? `under ${minChangePct} %`
            : 'intervals overlap';
    const unclaimed = changes.filter((c) => !c.claim).map((c) => `${c.text}, ${why(c)}: no claim`);
    return { subject, baseline: baseline.variant, variant: variant.variant, changes, sentence, unclaimed };
  });
}
