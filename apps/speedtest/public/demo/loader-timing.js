// Shows, on both versions of the libraries page, how long this load took until the app had run ("app:executed", a
// User Timing mark set by loader-app.js), keeps the latest runs of each version in this browser (localStorage, never
// sent anywhere), and lays them side by side so the loader's cost or gain is visible, not claimed.
const storageKey = 'speedkit:loader-timings:v1';
const keptRuns = 10;
const variant = document.documentElement.dataset.variant;
const panel = document.querySelector('#timings');

// What `npm run bench:loader` measured (bench/loader/README.md, results of 2026-11-27 17:53 UTC), shown on all three
// pages of the libraries demo: the median ms to "app executed", and for the loader the median of per-run ratios against the
// plain page of the same kind (each loader sample against the plain sample of its run).
const measuredRows = [
  [
    '1.6 Mbit/s, 150 ms RTT',
    '1716 ms',
    '1721 ms (1.004×)',
    '1361 ms',
    '1106 ms (0.813×)',
    '1.017× (≈ 65 ms)',
    '1110 ms (0.816×)',
  ],
  [
    '10 Mbit/s, 40 ms RTT',
    '498 ms',
    '488 ms (1.006×)',
    '313 ms',
    '306 ms (0.968×)',
    '0.984× (≈ 65–70 ms)',
    '547 ms (1.754×)',
  ],
  [
    '100 Mbit/s, 10 ms RTT',
    '299 ms',
    '257 ms (0.852×)',
    '161 ms',
    '156 ms (0.999×)',
    '1.025× (≈ 50–67 ms)',
    '468 ms (2.818×)',
  ],
];
const measuredColumns = [
  'Link',
  'Plain scripts, cold',
  'Loader, cold',
  'Plain scripts, next deploy',
  'Loader, next deploy',
  'Repeat view, loader vs plain',
  'BinaryAST forced, next deploy',
];
/** Cells ("row:column") where the loader was slower than plain scripts in every run. */
const slowerCells = new Set(['1:6', '2:6']);
const measuredNote = [
  'Chromium on shaped links (the delay applied to packets), 2026-11-27 on a 2-core machine with nothing else running (',
  'bench/results/loader-h36.csv',
  '; BinaryAST format 7): medians of 8 runs, except the repeat views, 60 runs each (bench/results/loader-h32-views-*.csv; every script runs as a plain script there, so the format does not matter). With 8 runs the cold and next-deploy ratios at 10 and 100 Mbit/s are within their noise (longer probes read cold 0.96–0.97×). "Next deploy": an earlier view of the site on the same link, then new script URLs. The loader decides per script with a cost model: on the slow link, once an earlier view has measured it and fetched the decoder, the next deploy\'s scripts come as BinaryAST (0.71× the gzip bytes) and the page runs 0.82× the plain time; elsewhere every script runs as a plain script and the decoder is never downloaded. Forcing BinaryAST (last column) shows what the model avoids on fast links.',
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
  measuredRows.forEach((values, rowIndex) => {
    const row = body.insertRow();
    values.forEach((text, index) => {
      const slower = slowerCells.has(`${rowIndex}:${index}`);
      row.append(cell('td', text, [index > 0 && 'number', slower && 'slower'].filter(Boolean).join(' ')));
    });
  });
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
