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
 * One row per profile and variant: medians, the spread of the executed time, and the change against plain scripts
 * (the first plain variant of the same kind: first visit; repeat view for variants named "repeat"; an earlier view
 * of the previous deploy for "new deploy").
 * @param {Record<string, any>[]} samples
 * @param {{ name: string }[]} profiles
 * @param {{ name: string }[]} variants
 */
export function summarise(samples, profiles, variants) {
  const rows = [];
  for (const profile of profiles) {
    /** @type {Record<string, number>} median of the plain variant, first visit and repeat view */
    const plainMs = {};
    for (const variant of variants) {
      const mine = samples.filter((s) => s.profile === profile.name && s.variant === variant.name);
      const executed = mine.map((s) => s.executedMs);
      const executedMs = median(executed);
      const kind = variant.name.includes('repeat')
        ? 'repeat'
        : variant.name.includes('new deploy')
          ? 'deploy'
          : 'first';
      plainMs[kind] ??= executedMs;
      rows.push({
        profile: profile.name,
        variant: variant.name,
        runs: mine.length,
        executedMs: Math.round(executedMs),
        minMs: Math.round(Math.min(...executed)),
        maxMs: Math.round(Math.max(...executed)),
        vsPlain: executedMs / (plainMs[kind] ?? Number.NaN),
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
