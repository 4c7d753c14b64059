// Pure formatting of the accuracy results: markdown table, CSV, and the pass/fail checks of issue 4.

/** @typedef {ReturnType<typeof import('./stats.mjs').summarize>[number]} Summary */

/** The metric of what the link carried in a direction's figure window (wire-meter.mjs). */
export const wireMetrics = /** @type {const} */ ({ download: 'downloadWire', upload: 'uploadWire' });

/**
 * The direction a throughput metric measures, its figure or its wire row (they share that direction's truth); null
 * for any other metric. @param {string} metric @returns {'download' | 'upload' | null}
 */
export function throughputDirection(metric) {
  if (metric === 'download' || metric === wireMetrics.download) return 'download';
  if (metric === 'upload' || metric === wireMetrics.upload) return 'upload';
  return null;
}

/** Metrics in table order, with how to print them. */
export const metrics = [
  { id: 'download', label: 'download Mbit/s', digits: 1, scale: 1e-6 },
  { id: 'upload', label: 'upload Mbit/s', digits: 1, scale: 1e-6 },
  { id: 'latency', label: 'latency ms', digits: 1, scale: 1 },
  { id: 'jitter', label: 'jitter ms', digits: 1, scale: 1 },
  { id: 'downLoadedLatency', label: 'loaded latency (down) ms', digits: 0, scale: 1 },
  { id: 'upLoadedLatency', label: 'loaded latency (up) ms', digits: 0, scale: 1 },
  // What the link carried in our engine's figure windows (wire-meter.mjs): its bias is the link's part of the error.
  { id: wireMetrics.download, label: 'download on the wire Mbit/s', digits: 1, scale: 1e-6 },
  { id: wireMetrics.upload, label: 'upload on the wire Mbit/s', digits: 1, scale: 1e-6 },
];

/** @param {number} value @param {number} digits */
const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
/** @param {number} value */
const signed = (value) => (Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${value.toFixed(1)}` : 'n/a');

/**
 * One markdown table: a row per profile, metric and engine, with truth, bias and spread.
 * @param {Summary[]} summaries
 */
export function markdownTable(summaries) {
  const lines = [
    '| profile | metric | engine | reported (median) | truth | bias % | error | spread % | MB moved | wall s | reps |',
    '|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const s of ordered(summaries)) {
    const metric = metrics.find((m) => m.id === s.metric);
    const digits = metric?.digits ?? 1;
    const scale = metric?.scale ?? 1;
    lines.push(
      `| ${s.profile} | ${metric?.label ?? s.metric} | ${s.engine} | ${fixed(s.reported * scale, digits)} | ` +
        `${fixed(s.truth * scale, digits)} | ${signed(s.biasPercent)} | ${signed(s.errorAbs * scale)} | ` +
        `${fixed(s.spreadPercent, 1)} | ${fixed(s.bytes / 1e6, 0)} | ${fixed(s.wallMs / 1000, 1)} | ${s.repetitions} |`,
    );
  }
  return lines.join('\n');
}

/** @param {Summary[]} summaries */
function ordered(summaries) {
  const metricIndex = (/** @type {string} */ id) => metrics.findIndex((m) => m.id === id);
  const profileOrder = [...new Set(summaries.map((s) => s.profile))];
  return [...summaries].sort(
    (a, b) =>
      profileOrder.indexOf(a.profile) - profileOrder.indexOf(b.profile) ||
      metricIndex(a.metric) - metricIndex(b.metric) ||
      a.engine.localeCompare(b.engine),
  );
}

/**
 * CSV with one row per summary (raw SI units: bits/s, ms, bytes), quoted where needed.
 * @param {Summary[]} summaries
 */
export function csv(summaries) {
  const columns = /** @type {const} */ ([
    'profile',
    'engine',
    'metric',
    'repetitions',
    'reported',
    'truth',
    'biasPercent',
    'errorAbs',
    'spreadPercent',
    'bytes',
    'wallMs',
  ]);
  const cell = (/** @type {unknown} */ value) => {
    const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : String(value);
    return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [columns.join(','), ...ordered(summaries).map((s) => columns.map((c) => cell(s[c])).join(','))].join('\n');
}

/**
 * The done-when checks of issue 4 for one engine: throughput bias within ±maxBiasPercent up to maxRateMbit, latency
 * within ±maxLatencyErrorMs of truth (configured delay + measured local overhead).
 * @param {Summary[]} summaries
 * @param {{ engine: string, rateMbitOf: (profile: string) => number, maxRateMbit: number, maxBiasPercent: number, maxLatencyErrorMs: number }} limits
 */
export function checks(summaries, limits) {
  return summaries
    .filter((s) => s.engine === limits.engine && limits.rateMbitOf(s.profile) <= limits.maxRateMbit)
    .filter((s) => ['download', 'upload', 'latency'].includes(s.metric))
    .map((s) => {
      const ok =
        s.metric === 'latency'
          ? Math.abs(s.errorAbs) <= limits.maxLatencyErrorMs
          : Math.abs(s.biasPercent) <= limits.maxBiasPercent;
      const limit = s.metric === 'latency' ? `±${limits.maxLatencyErrorMs} ms` : `±${limits.maxBiasPercent}%`;
      const value = s.metric === 'latency' ? `${signed(s.errorAbs)} ms` : `${signed(s.biasPercent)}%`;
      return { profile: s.profile, metric: s.metric, ok, text: `${s.profile} ${s.metric}: ${value} (limit ${limit})` };
    });
}

/**
 * Issue 15's goals on one run, profile by profile: our throughput within ±maxBiasPercent of truth in each direction,
 * in at most maxBytesShare of the bytes the reference engine moved on the same profile. Only profiles both engines
 * ran are judged (the bytes goal needs the reference). Returns a compact table (one row per profile) and the checks.
 * @param {Summary[]} summaries
 * @param {{ ours?: string, reference?: string, maxBiasPercent?: number, maxBytesShare?: number }} [limits]
 */
export function goalSummary(summaries, limits = {}) {
  const { ours = 'speedkit', reference = '@cloudflare/speedtest', maxBiasPercent = 1.5, maxBytesShare = 0.5 } = limits;
  const find = (/** @type {string} */ profile, /** @type {string} */ engine, /** @type {string} */ metric) =>
    summaries.find((s) => s.profile === profile && s.engine === engine && s.metric === metric);
  const profiles = [...new Set(summaries.map((s) => s.profile))].filter(
    (p) => find(p, ours, 'download') && find(p, reference, 'download'),
  );
  const mbit = (/** @type {number | undefined} */ bps) => fixed((bps ?? Number.NaN) / 1e6, 1);
  const lines = [
    '| profile | truth down / up Mbit/s | download bias %: ours / reference | upload bias %: ours / reference | latency error ms: ours / reference | jitter error ms: ours / reference | MB moved: ours / reference (share) |',
    '|---|--:|--:|--:|--:|--:|--:|',
  ];
  /** @type {{ profile: string, metric: string, ok: boolean, text: string }[]} */
  const results = [];
  for (const profile of profiles) {
    const pair = (/** @type {string} */ metric) => [find(profile, ours, metric), find(profile, reference, metric)];
    const [down, refDown] = pair('download');
    const [up, refUp] = pair('upload');
    const [latency, refLatency] = pair('latency');
    const [jitter, refJitter] = pair('jitter');
    const share = (down?.bytes ?? Number.NaN) / (refDown?.bytes ?? Number.NaN);
    const percent = (/** @type {number} */ value) => (Number.isFinite(value) ? `${Math.round(value * 100)} %` : 'n/a');
    lines.push(
      `| ${profile} | ${mbit(down?.truth)} / ${mbit(up?.truth)} | ` +
        `${signed(down?.biasPercent ?? Number.NaN)} / ${signed(refDown?.biasPercent ?? Number.NaN)} | ` +
        `${signed(up?.biasPercent ?? Number.NaN)} / ${signed(refUp?.biasPercent ?? Number.NaN)} | ` +
        `${signed(latency?.errorAbs ?? Number.NaN)} / ${signed(refLatency?.errorAbs ?? Number.NaN)} | ` +
        `${signed(jitter?.errorAbs ?? Number.NaN)} / ${signed(refJitter?.errorAbs ?? Number.NaN)} | ` +
        `${fixed((down?.bytes ?? Number.NaN) / 1e6, 0)} / ${fixed((refDown?.bytes ?? Number.NaN) / 1e6, 0)} (${percent(share)}) |`,
    );
    for (const [metric, s] of /** @type {const} */ ([
      ['download', down],
      ['upload', up],
    ])) {
      const bias = s?.biasPercent ?? Number.NaN;
      results.push({
        profile,
        metric,
        ok: Math.abs(bias) <= maxBiasPercent,
        text: `${profile} ${metric}: ${signed(bias)}% (limit ±${maxBiasPercent}%)`,
      });
    }
    results.push({
      profile,
      metric: 'bytes',
      ok: share <= maxBytesShare,
      text: `${profile} bytes: ${percent(share)} of the reference's (limit ${percent(maxBytesShare)})`,
    });
  }
  return { table: lines.join('\n'), checks: results };
}
