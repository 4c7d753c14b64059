// Shows, on both versions of the libraries page, how long this load took until the app had run ("app:executed", a
// User Timing mark set by loader-app.js), keeps the latest runs of each version in this browser (localStorage, never
// sent anywhere), and lays them side by side so the loader's cost or gain is visible, not claimed.
const storageKey = 'speedkit:loader-timings:v1';
const keptRuns = 10;
const variant = document.documentElement.dataset.variant;
const panel = document.querySelector('#timings');

// What `npm run bench:loader` measured (bench/loader/README.md), shown on all three pages of the libraries demo:
// median (min–max) of 9 loads to "app executed", ms.
const measuredRows = [
  [
    '1.6 Mbit/s, 150 ms RTT',
    '1457 (1422–1560) ms',
    '1497 (1466–1751) ms',
    '1439 (1381–1531) ms',
    '56 / 72 ms',
    '1825 (1676–2321) ms',
  ],
  [
    '10 Mbit/s, 40 ms RTT',
    '443 (337–515) ms',
    '446 (353–492) ms',
    '424 (370–504) ms',
    '68 / 78 ms',
    '585 (522–762) ms',
  ],
  [
    '100 Mbit/s, 10 ms RTT',
    '349 (269–570) ms',
    '367 (264–456) ms',
    '331 (222–564) ms',
    '95 / 76 ms',
    '488 (448–617) ms',
  ],
];
const measuredColumns = [
  'Link',
  'Plain scripts',
  'Loader, cold',
  'Loader, decoder cached',
  'Repeat view, plain / loader',
  'BinaryAST forced, decoder cached',
];
/** Columns where the loader was slower than plain scripts in every row. */
const slowerColumns = new Set([2, 5]);
const measuredNote = [
  'Median (min–max) of 9 loads to "app executed", Chromium on shaped links, 2026-11-24 on a 2-core machine shared with other work (load average ≈ 8: differences of a few percent are within its noise) (',
  'bench/results/loader.csv',
  "). The loader decides per script with a cost model: today's BinaryAST is larger than gzip of these libraries, so it runs every one as a plain script (the decoder is never downloaded) and costs only its own 2 KB. Forcing BinaryAST (last column, decoder cached) is 1.2–1.5× slower than plain scripts after an earlier page of the site: that is what the model avoids.",
];

function cell(tag, text, className = '') {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

/** A table inside a box that scrolls sideways on narrow screens. */
function scrolling(table) {
  const wrapper = cell('div', '', 'table-scroll');
  wrapper.append(table);
  return wrapper;
}

function showMeasured(container) {
  const heading = document.createElement('h3');
  heading.append('Measured by ', cell('code', 'npm run bench:loader'));
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  measuredColumns.forEach((title, index) => {
    const th = cell('th', title, index > 0 ? 'number' : '');
    th.scope = 'col';
    head.append(th);
  });
  const body = table.createTBody();
  for (const values of measuredRows) {
    const row = body.insertRow();
    values.forEach((text, index) => {
      row.append(
        cell('td', text, [index > 0 && 'number', slowerColumns.has(index) && 'slower'].filter(Boolean).join(' ')),
      );
    });
  }
  const note = cell('p', '', 'muted');
  note.append(measuredNote[0], cell('code', measuredNote[1]), measuredNote[2]);
  container.replaceChildren(heading, scrolling(table), note);
}

showMeasured(panel.querySelector('[data-measured]'));

function executedMark() {
  const existing = performance.getEntriesByName('app:executed', 'mark')[0];
  if (existing) return Promise.resolve(existing);
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      const mark = list.getEntriesByName('app:executed')[0];
      if (mark) {
        observer.disconnect();
        resolve(mark);
      }
    });
    observer.observe({ type: 'mark', buffered: true });
  });
}

/** Cold = the page's scripts came over the network; warm = all from the HTTP cache (transferSize 0). */
function cacheState() {
  const scripts = performance
    .getEntriesByType('resource')
    .filter((entry) => /\/demo\/(loader\/lib\/|loader-app\.js|loader\/binast)/.test(entry.name));
  return scripts.some((entry) => entry.transferSize > 0) ? 'cold' : 'warm';
}

function load() {
  try {
    const parsed = JSON.parse(localStorage.getItem(storageKey) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function save(runs) {
  try {
    localStorage.setItem(storageKey, JSON.stringify(runs.slice(-keptRuns * 4)));
  } catch {
    // Storage blocked: the table still shows this load.
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const mark = await executedMark();
const executedMs = Math.round(mark.startTime);
const cache = cacheState();
const runs = [...load(), { variant, cache, executedMs, at: new Date().toISOString() }];
save(runs);
window.__loaderTiming = { variant, cache, executedMs };

const records = window.binast?.records ?? [];
const outcomes = records.map((record) => `${record.outcome ?? 'pending'}${record.reason ? ` (${record.reason})` : ''}`);
const decodeMs = records.reduce((sum, record) => sum + (record.decodeMs ?? 0), 0);
const thisLoad = document.createElement('p');
thisLoad.id = 'this-load';
thisLoad.textContent =
  `This load (${variant === 'binast' ? 'BinaryAST loader' : 'plain scripts'}, ${cache} cache): app executed ${executedMs} ms after navigation` +
  (variant === 'binast' ? `; ${Math.round(decodeMs)} ms decoding; outcomes: ${outcomes.join(', ') || 'none'}.` : '.');

const table = document.createElement('table');
table.innerHTML =
  '<caption>Your latest runs in this browser (median of up to 10 each)</caption><thead><tr><th scope="col">Version</th><th scope="col">Cache</th><th scope="col" class="number">Runs</th><th scope="col" class="number">App executed</th></tr></thead>';
const body = document.createElement('tbody');
for (const version of ['plain', 'binast']) {
  for (const state of ['cold', 'warm']) {
    const times = runs.filter((run) => run.variant === version && run.cache === state).slice(-keptRuns);
    const row = document.createElement('tr');
    row.dataset.version = version;
    row.dataset.cache = state;
    for (const [text, className] of [
      [version === 'plain' ? 'plain <script>' : 'BinaryAST loader', ''],
      [state, ''],
      [String(times.length), 'number'],
      [times.length ? `${Math.round(median(times.map((run) => run.executedMs)))} ms` : 'not run yet', 'number'],
    ]) {
      row.append(cell('td', text, className));
    }
    body.append(row);
  }
}
table.append(body);
panel.querySelector('[data-live]').replaceChildren(thisLoad, scrolling(table));
panel.dataset.ready = 'true';
