// Writes a Speed Page measurement under bench/results/speed-page/<site>/<time>/: runs.csv and runs.json (every
// run), summary.json (what the report shows), report.html; prints the summary table.
import { accessSync, constants, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { profiles } from './profiles.mjs';
import { reportHtml } from './report-html.mjs';
import { formatValue, metrics, summarise } from './summary.mjs';

export const resultsRoot = resolve(fileURLToPath(new URL('../results/speed-page', import.meta.url)));

/** A folder name for the site: "demo" for the built-in site, else host and path. @param {URL | null} url */
export function siteName(url) {
  if (url === null) return 'demo';
  return `${url.host}${url.pathname}`.replace(/[^a-zA-Z0-9.-]+/g, '_').replace(/_+$/, '');
}

const csvColumns = [
  'profile',
  'variant',
  'run',
  'protocol',
  'ttfbMs',
  'fcpMs',
  'lcpMs',
  'speedIndexMs',
  'speedlineSpeedIndexMs',
  'speedIndexVsSpeedlinePct',
  'visuallyComplete85Ms',
  'visuallyComplete100Ms',
  'tbtMs',
  'cls',
  'totalBytes',
  'requests',
  'frames',
  'lcpElement',
  'error',
  // Requests the lab's front sent twice because wrangler dev dropped the first try (each "url: why", joined by "; ").
  'labRetries',
];

/**
 * Makes sure the report can be written to `--out` before the lab starts: the folder is created (with its parents) and
 * must be writable. Until 2026-11-28 a file's path or an unwritable folder was found only after every run, and the
 * runs were lost with a bare "EEXIST: file already exists, mkdir …".
 * @param {string} dir
 */
export function prepareOutDir(dir) {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'a file is in the way' : (code ?? String(error));
    throw new Error(`--out ${dir}: cannot create the report folder (${why})`);
  }
  if (!statSync(dir).isDirectory()) throw new Error(`--out ${dir}: not a folder`);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new Error(`--out ${dir}: the folder is not writable`);
  }
}

/**
 * @param {{ url: string, site: string, outDir?: string | null, measured: Awaited<ReturnType<typeof import('./lab.mjs').runLab>>, runsPerVariant: number, notes: string[] }} options
 * @returns {{ dir: string, summary: ReturnType<typeof summarise> }}
 */
export function writeResults({ url, site, outDir, measured, runsPerVariant, notes }) {
  const date = new Date().toISOString();
  const dir = outDir ?? join(resultsRoot, site, date.replace(/[:.]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const profileNames = [...new Set(measured.runs.map((r) => r.profile))];
  const summary = summarise(measured.runs, measured.variants, profileNames);
  for (const profileSummary of summary) {
    for (const row of profileSummary.rows) {
      const run = measured.runs.find(
        (r) => r.profile === profileSummary.profile && r.variant === row.variant && r.run === row.representativeRun,
      );
      row.progress = run?.progress ?? [];
    }
  }
  const quote = (/** @type {unknown} */ v) =>
    /[",\n]/.test(String(v ?? '')) ? `"${String(v).replaceAll('"', '""')}"` : String(v ?? '');
  const round = (/** @type {unknown} */ v) =>
    typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 1000) / 1000 : v;
  const csv = [
    [
      ...csvColumns,
      ...['html', 'css', 'js', 'image', 'font', 'other'].flatMap((c) => [`${c}Bytes`, `${c}Requests`]),
    ].join(','),
    ...measured.runs.map((r) =>
      [
        ...csvColumns.map((c) => quote(round(Array.isArray(r[c]) ? r[c].join('; ') : r[c]))),
        ...['html', 'css', 'js', 'image', 'font', 'other'].flatMap((c) => [
          r.byClass?.[c]?.bytes ?? '',
          r.byClass?.[c]?.requests ?? '',
        ]),
      ].join(','),
    ),
  ].join('\n');
  writeFileSync(join(dir, 'runs.csv'), `${csv}\n`);
  const setup = { url, date, runsPerVariant, rtt: measured.rttMechanism, profiles, variants: measured.variants, notes };
  writeFileSync(join(dir, 'runs.json'), `${JSON.stringify({ setup, runs: measured.runs }, null, 2)}\n`);
  // The thumbnails too, so render.mjs can redraw the report from this folder alone.
  writeFileSync(join(dir, 'filmstrips.json'), JSON.stringify(measured.filmstrips));
  writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ setup, summary }, null, 2)}\n`);
  const html = reportHtml({
    url,
    date,
    runsPerVariant,
    summary,
    filmstrips: measured.filmstrips,
    variants: measured.variants,
    profiles,
    rttMechanism: measured.rttMechanism,
    notes,
  });
  writeFileSync(join(dir, 'report.html'), html);
  return { dir, summary };
}

/** The summary as text tables and sentences, for the terminal (and docs/speed-page.md). @param {ReturnType<typeof summarise>} summary */
export function summaryText(summary) {
  const lines = [];
  for (const { profile, rows, findings } of summary) {
    lines.push('', `${profiles[profile].label}: median [95 % bootstrap interval]`, '');
    const header = ['Variant', 'Protocol', 'Runs', ...metrics.map((m) => m.label)];
    lines.push(`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
    for (const row of rows) {
      const cells = metrics.map(({ key, unit }) => {
        const s = row.stats[key];
        return `${formatValue(s.median, unit)} [${formatValue(s.low, unit)}–${formatValue(s.high, unit)}]`;
      });
      lines.push(`| ${[row.label, row.protocol, String(row.runs), ...cells].join(' | ')} |`);
    }
    lines.push('');
    for (const finding of findings) {
      lines.push(
        `- ${finding.sentence}${finding.unclaimed.length && finding.changes.some((c) => c.claim) ? ` (${finding.unclaimed.join('; ')})` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
