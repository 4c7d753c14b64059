// Pure summaries of the loader benchmark's samples: medians per profile and variant, a text table and CSV.

/** @param {number[]} values */
export function median(values) {
  const sorted = values.filter(Number.isFinite).toSorted((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? /** @type {number} */ (sorted[middle])
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/**
 * A distribution-free 95 % interval for the median of `values`: the k-th smallest and k-th largest, with k the largest
 * rank whose binomial(n, 1/2) tail stays <= 2.5 % on each side (n = 9: the 2nd and 8th; n = 21: the 6th and 16th;
 * n = 41: the 14th and 28th). NaN for fewer than 6 values, where no such k exists.
 * @param {number[]} values
 * @returns {[number, number]}
 */
export function medianInterval(values) {
  const sorted = values.filter(Number.isFinite).toSorted((a, b) => a - b);
  const n = sorted.length;
  let k = 0;
  let tail = 0;
  let choose = 1;
  // tail = P(X <= k - 1) for X ~ binomial(n, 1/2); k grows while P(X <= k) stays within 2.5 %.
  for (let i = 0; i < n; i++) {
    if (i > 0) choose = (choose * (n - i + 1)) / i;
    const next = tail + choose / 2 ** n;
    if (next > 0.025) break;
    tail = next;
    k = i + 1;
  }
  return k > 0 ? [sorted[k - 1] ?? Number.NaN, sorted[n - k] ?? Number.NaN] : [Number.NaN, Number.NaN];
}

/**
 * Per-run comparisons against the plain page (ratios, or differences with `neutral` 0): their median, its 95 %
 * interval (`medianInterval`) and how many runs came out slower (above `neutral`).
 * @param {number[]} values
 * @param {number} [neutral] the value of "as fast as plain": 1 for ratios, 0 for differences
 */
export function pairedSummary(values, neutral = 1) {
  const [low, high] = medianInterval(values);
  return { median: median(values), low, high, slower: values.filter((value) => value > neutral).length };
}

/**
 * One row per profile and variant: medians, the spread of the executed time, and the change against plain scripts
 * (the first plain variant of the same kind: first visit; repeat view for variants named "repeat", third view for
 * "third view"; an earlier view of the previous deploy for "new deploy").
 * @param {Record<string, any>[]} samples
 * @param {{ name: string }[]} profiles
 * @param {{ name: string }[]} variants
 */
export function summarise(samples, profiles, variants) {
  const rows = [];
  for (const profile of profiles) {
    /** @type {Record<string, number>} median of the plain variant of each kind */
    const plainMs = {};
    /** @type {Record<string, Record<string, number>>} the plain variant's executed ms per run, by kind */
    const plainByRun = {};
    for (const variant of variants) {
      const mine = samples.filter((s) => s.profile === profile.name && s.variant === variant.name);
      const executed = mine.map((s) => s.executedMs);
      const executedMs = median(executed);
      const kind = variant.name.includes('repeat')
        ? 'repeat'
        : variant.name.includes('third view')
          ? 'third'
          : variant.name.includes('new deploy')
            ? 'deploy'
            : 'first';
      plainMs[kind] ??= executedMs;
      plainByRun[kind] ??= Object.fromEntries(mine.map((s) => [s.run, s.executedMs]));
      // Each sample against the plain one of the same kind and run, loaded minutes apart at most: drift on the
      // machine moves both, so these ratios spread less than the medians of either.
      const paired = pairedSummary(mine.map((s) => s.executedMs / (plainByRun[kind]?.[s.run] ?? Number.NaN)));
      rows.push({
        profile: profile.name,
        variant: variant.name,
        runs: mine.length,
        executedMs: Math.round(executedMs),
        minMs: Math.round(Math.min(...executed)),
        maxMs: Math.round(Math.max(...executed)),
        vsPlain: executedMs / (plainMs[kind] ?? Number.NaN),
        pairedVsPlain: paired.median,
        pairedLow: paired.low,
        pairedHigh: paired.high,
        slowerRuns: paired.slower,
        scriptWireBytes: Math.round(median(mine.map((s) => s.scriptWireBytes))),
        decoderWireBytes: Math.round(median(mine.map((s) => s.decoderWireBytes))),
        decodeMs: Math.round(median(mine.map((s) => s.decodeMs))),
        decoderDownloadMs: Math.round(median(mine.map((s) => s.decoderDownloadMs))),
        outcomes: [...new Set(mine.map((s) => s.outcomes))].join(' / '),
        modelInput: [...new Set(mine.map((s) => s.modelInput))].join(' / '),
      });
    }
  }
  return rows;
}

const columns = /** @type {const} */ ([
  ['profile', 'profile'],
  ['variant', 'variant'],
  ['executedMs', 'executed ms (median)'],
  ['range', 'min–max'],
  ['vsPlain', 'vs plain'],
  ['paired', 'paired per run (95 %), runs slower'],
  ['scriptWireBytes', 'script bytes on wire'],
  ['decoderWireBytes', 'decoder bytes on wire'],
  ['decodeMs', 'decode ms'],
  ['decoderDownloadMs', 'decoder download ms'],
  ['outcomes', 'outcome(reason) per script'],
]);

/** @param {Record<string, any>[]} rows */
export function toTable(rows) {
  const cells = rows.map((row) =>
    columns.map(([key]) =>
      key === 'range'
        ? `${row.minMs}–${row.maxMs}`
        : key === 'vsPlain'
          ? `${row.vsPlain.toFixed(3)}×`
          : key === 'paired'
            ? `${row.pairedVsPlain.toFixed(3)}× (${row.pairedLow.toFixed(3)}–${row.pairedHigh.toFixed(3)}), ${row.slowerRuns}/${row.runs}`
            : String(row[key]),
    ),
  );
  const header = columns.map(([, title]) => title);
  const widths = header.map((title, i) => Math.max(title.length, ...cells.map((cell) => cell[i]?.length ?? 0)));
  const line = (/** @type {string[]} */ values) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join('\n');
}

/** @param {Record<string, any>[]} rows */
export function toCsv(rows) {
  const keys = Object.keys(rows[0] ?? {});
  const quote = (/** @type {unknown} */ value) =>
    /[",\n]/.test(String(value)) ? `"${String(value).replaceAll('"', '""')}"` : String(value);
  return `${[keys.join(','), ...rows.map((row) => keys.map((key) => quote(row[key])).join(','))].join('\n')}\n`;
}
