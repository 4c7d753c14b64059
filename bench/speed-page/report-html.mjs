// The self-contained HTML report: opens from disk with no server (Chart.js inlined from node_modules, frames as data
// URIs). Per profile: findings as sentences, filmstrips side by side, the visual-progress chart, the metrics table.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatValue, metrics } from './summary.mjs';

const require = createRequire(import.meta.url);
// chart.js exports no subpath for its UMD build; it sits beside the package's main file.
const chartJs = () => readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
const clientScript = () => readFileSync(new URL('./report-client.js', import.meta.url), 'utf8');

/** @param {string} text */
const escapeHtml = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
/** JSON safe inside <script>: no `</script>` or `<!--` can close it early. @param {unknown} value */
const scriptJson = (value) => JSON.stringify(value).replace(/</g, '\\u003c');

const styles = `
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5a5a5f; --line: #d9d9de; --accent: #0b57d0; --good: #0a7a35; --bad: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fff; }
header, section { padding: 12px 16px; max-width: 1400px; margin: 0 auto; }
h1 { font-size: 1.5rem; margin: 8px 0; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 24px 0 8px; border-top: 1px solid var(--line); padding-top: 16px; }
h3 { font-size: 1.05rem; margin: 16px 0 8px; }
.meta { color: var(--muted); font-size: 0.9rem; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; }
ul.findings { padding-left: 20px; } ul.findings li { margin: 4px 0; }
.claim { font-weight: 600; }
.claim small.note { font-weight: 400; }
.noclaim { color: var(--muted); }
.badge { display: inline-block; font-size: 0.75rem; padding: 0 6px; border-radius: 8px; border: 1px solid currentColor; margin-left: 4px; }
.scroll { overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { padding: 4px 8px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; position: sticky; left: 0; background: #fff; }
table.metrics th[scope="col"] { white-space: normal; vertical-align: bottom; width: 1px; }
table.metrics td, table.metrics th { padding: 4px 6px; }
table.metrics th small.note { font-weight: 400; }
table.strip td, table.strip th { padding: 2px; border: 0; vertical-align: top; }
table.strip th { font-weight: 600; max-width: 9rem; white-space: normal; text-align: left; padding-right: 8px; }
.cell { display: block; font-size: 0.7rem; color: var(--muted); text-align: center; }
.cell img, .cell .blank { display: block; border: 1px solid var(--line); background: #fff; }
.cell.lcp img { border: 3px solid var(--bad); }
.cell.lcp .mark { color: var(--bad); font-weight: 700; }
.chart { position: relative; height: 320px; max-width: 900px; }
small.note { color: var(--muted); }
@media (max-width: 600px) { body { font-size: 15px; } header, section { padding: 8px 10px; } .chart { height: 260px; }
  table.metrics th[scope="row"] { white-space: normal; min-width: 6.5rem; box-shadow: 1px 0 0 var(--line); } }
`;

/**
 * @typedef {{ url: string, date: string, runsPerVariant: number, summary: Summary, filmstrips: Record<string, any>,
 *   variants: any[], profiles: Record<string, Profile>, rttMechanism: string, notes: string[] }} ReportData
 * @typedef {ReturnType<typeof import('./summary.mjs').summarise>} Summary
 * @typedef {import('./summary.mjs').SummaryRow} SummaryRow
 * @typedef {import('./profiles.mjs').Profile} Profile
 */

/** @param {ReportData} data */
export function reportHtml(data) {
  const sections = data.summary.map((profileSummary) => profileSection(profileSummary, data)).join('\n');
  const nav = data.summary
    .map((s) => `<a href="#profile-${s.profile}">${escapeHtml(data.profiles[s.profile].label)}</a>`)
    .join(' · ');
  /** @type {Record<string, { label: string, points: [number, number][] }[]>} */
  const chartData = {};
  for (const s of data.summary) {
    chartData[s.profile] = s.rows.map((row) => ({ label: row.label, points: row.progress ?? [] }));
  }
  /** @type {Record<string, Record<string, string[]>>} */
  const frames = {};
  for (const [profile, strips] of Object.entries(data.filmstrips)) {
    frames[profile] = Object.fromEntries(Object.entries(strips).map(([id, strip]) => [id, strip.images]));
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Speed Page — ${escapeHtml(data.url)}</title>
<style>${styles}</style>
</head>
<body>
<a class="skip" href="#main">Skip to the results</a>
<header>
<h1>Speed Page: ${escapeHtml(data.url)}</h1>
<p class="meta">Measured ${escapeHtml(data.date)} · ${data.runsPerVariant} run(s) per variant, interleaved, cold cache,
fresh browser context per run · RTT: ${escapeHtml(data.rttMechanism)}</p>
<p class="meta">${data.notes.map(escapeHtml).join(' ')}</p>
<nav aria-label="Profiles">${nav}</nav>
</header>
<main id="main">
${sections}
</main>
<script type="application/json" id="speed-page-frames">${scriptJson(frames)}</script>
<script type="application/json" id="speed-page-curves">${scriptJson(chartData)}</script>
<script>${chartJs()}</script>
<script>${clientScript()}</script>
</body>
</html>
`;
}

/** @param {Summary[number]} profileSummary @param {ReportData} data */
function profileSection(profileSummary, data) {
  const { profile, rows, findings } = profileSummary;
  const label = data.profiles[profile].label;
  const strips = data.filmstrips[profile] ?? {};
  const findingItems = findings
    .map((f) => {
      const claimed = f.changes.some((c) => c.claim);
      const extra =
        f.unclaimed.length > 0 && claimed ? ` <small class="note">(${escapeHtml(f.unclaimed.join('; '))})</small>` : '';
      const badge = claimed ? '' : ' <span class="badge" data-no-claim>no claim</span>';
      return `<li class="${claimed ? 'claim' : 'noclaim'}" data-variant="${f.variant}">${escapeHtml(f.sentence)}${badge}${extra}</li>`;
    })
    .join('\n');
  return `<section id="profile-${profile}" aria-labelledby="title-${profile}" data-profile="${profile}">
<h2 id="title-${profile}">${escapeHtml(label)}</h2>
<h3>What each feature does</h3>
<ul class="findings">${findingItems}</ul>
<h3 id="strip-title-${profile}">Filmstrips (a frame every 100 ms; LCP frame outlined in red)</h3>
<div class="scroll" tabindex="0" role="region" aria-labelledby="strip-title-${profile}">
<table class="strip">${rows.map((row) => stripRow(row, strips[row.variant], data.profiles[profile], stripColumns(strips))).join('\n')}</table>
</div>
<h3 id="chart-title-${profile}">Visual progress (representative run per variant)</h3>
<div class="chart"><canvas id="chart-${profile}" role="img" aria-labelledby="chart-title-${profile}" data-profile="${profile}"></canvas></div>
<h3 id="table-title-${profile}">Metrics: median [95 % interval] of the runs</h3>
<div class="scroll" tabindex="0" role="region" aria-labelledby="table-title-${profile}">
${metricsTable(rows, profile)}
</div>
<h3 id="bytes-title-${profile}">Bytes and requests by type (median)</h3>
<div class="scroll" tabindex="0" role="region" aria-labelledby="bytes-title-${profile}">
${bytesTable(rows, profile)}
</div>
</section>`;
}

/** The filmstrip table's frame columns: the longest strip's. @param {Record<string, { frameOf: number[] }>} strips */
const stripColumns = (strips) => Math.max(1, ...Object.values(strips).map((strip) => strip.frameOf.length));

/**
 * @param {SummaryRow} row @param {{ run: number, lcpMs: number, stepMs: number, frameOf: number[] } | undefined} strip
 * @param {Profile} profile @param {number} columns frame columns of the table
 */
function stripRow(row, strip, profile, columns) {
  const widthPx = profile.thumbWidthPx;
  // Blank cells take the screen's shape so every row lines up with the frames of the others.
  const heightPx = Math.round((widthPx * profile.viewport.height) / profile.viewport.width);
  const head = `<th scope="row">${escapeHtml(row.label)}<br><small class="note">${escapeHtml(row.protocol)}${strip ? `, run ${strip.run}` : ''}</small></th>`;
  // Across every frame column: in the first alone, its text widened that column, the other rows' 0.0 s frame with it.
  if (!strip) return `<tr data-variant="${row.variant}">${head}<td colspan="${columns}">no successful run</td></tr>`;
  const lcpStep = Number.isFinite(strip.lcpMs) ? Math.ceil(strip.lcpMs / strip.stepMs) : -1;
  const cells = strip.frameOf
    .map((frameIndex, step) => {
      const atS = ((step * strip.stepMs) / 1000).toFixed(1);
      const isLcp = step === lcpStep;
      const picture =
        frameIndex < 0
          ? `<span class="blank" style="width:${widthPx}px;height:${heightPx}px"></span>`
          : `<img data-frame="${frameIndex}" width="${widthPx}" alt="${escapeHtml(row.label)} at ${atS} s${isLcp ? ', LCP' : ''}">`;
      return `<td><span class="cell${isLcp ? ' lcp' : ''}"${isLcp ? ' data-lcp' : ''}>${picture}${atS} s${isLcp ? ' <span class="mark">LCP</span>' : ''}</span></td>`;
    })
    .join('');
  return `<tr data-variant="${row.variant}">${head}${cells}</tr>`;
}

/**
 * An interval, its unit written once when both ends share it ("[2.10–2.45 s]", "[950 ms–1.02 s]"): written at both
 * ends it made the metrics table wider than a 1366 px screen, and Bytes and Requests needed scrolling.
 * @param {number} low @param {number} high @param {string} unit
 */
export function formatInterval(low, high, unit) {
  const [from, to] = [formatValue(low, unit), formatValue(high, unit)];
  const unitOf = (/** @type {string} */ text) => / ([A-Za-z]+)$/.exec(text)?.[1];
  const shared = unitOf(from);
  return shared && shared === unitOf(to) ? `[${from.slice(0, -shared.length - 1)}–${to}]` : `[${from}–${to}]`;
}

/**
 * The metrics table. Its column headers wrap ("Visually complete 85 %" was the widest cell of its column) and the
 * protocol and failed runs sit under the variant and the run count, so that at 1366 px it fits without scrolling; on
 * a phone it scrolls under a sticky variant column.
 * @param {SummaryRow[]} rows @param {string} profile
 */
function metricsTable(rows, profile) {
  const head = `<tr><th scope="col">Variant<br><small class="note">protocol</small></th><th scope="col">Runs</th>${metrics
    // "85 %" kept on one line where the header wraps.
    .map((m) => `<th scope="col">${escapeHtml(m.label).replace(/ %/g, '&nbsp;%')}</th>`)
    .join('')}</tr>`;
  const body = rows
    .map((row) => {
      const cells = metrics
        .map((m) => {
          const s = row.stats[m.key];
          return `<td data-metric="${m.key}" data-median="${s.median}">${formatValue(s.median, m.unit)}<br><small class="note">${formatInterval(s.low, s.high, m.unit)}</small></td>`;
        })
        .join('');
      // Under the run count and the variant's name, as the filmstrips have it: beside them, they were two more
      // columns' width.
      const failed = row.failedRuns > 0 ? `<br><small class="note">${row.failedRuns} failed</small>` : '';
      // Counted runs in which wrangler dev dropped a request and the lab's front sent it again: the delay is the lab's.
      const retried = row.labRetriedRuns
        ? `<br><small class="note" title="wrangler dev dropped a request; the lab sent it again (runs.json labRetries)">${row.labRetriedRuns} with a lab retry</small>`
        : '';
      const variant = `${escapeHtml(row.label)}<br><small class="note" data-protocol>${escapeHtml(row.protocol)}</small>`;
      return `<tr data-variant="${row.variant}"><th scope="row">${variant}</th><td data-runs>${row.runs}${failed}${retried}</td>${cells}</tr>`;
    })
    .join('\n');
  return `<table class="metrics" data-profile="${profile}">${head}${body}</table>`;
}

/** @param {SummaryRow[]} rows @param {string} profile */
function bytesTable(rows, profile) {
  const classes = Object.keys(rows.find((r) => Object.keys(r.byClass).length > 0)?.byClass ?? {});
  const head = `<tr><th scope="col">Variant</th>${classes.map((c) => `<th scope="col">${c}</th>`).join('')}</tr>`;
  const body = rows
    .map(
      (row) =>
        `<tr data-variant="${row.variant}"><th scope="row">${escapeHtml(row.label)}</th>${classes
          .map((c) => {
            const entry = row.byClass[c] ?? { bytes: Number.NaN, requests: Number.NaN };
            // "3 KB / 1" left the reader to guess what the 1 counts.
            const requests = formatValue(entry.requests, 'count');
            return `<td>${formatValue(entry.bytes, 'bytes')} in ${requests} ${requests === '1' ? 'request' : 'requests'}</td>`;
          })
          .join('')}</tr>`,
    )
    .join('\n');
  return `<table class="bytes" data-profile="${profile}">${head}${body}</table>`;
}
