// Shows, on both versions of the libraries page, how long this load took until the app had run ("app:executed", a
// User Timing mark set by loader-app.js), keeps the latest runs of each version in this browser (localStorage, never
// sent anywhere), and lays them side by side so the loader's cost or gain is visible, not claimed.
const storageKey = 'speedkit:loader-timings:v1';
const keptRuns = 10;
const variant = document.documentElement.dataset.variant;
const panel = document.querySelector('#timings');

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
const outcomes = records.map((record) => record.outcome ?? 'pending');
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
      const cell = document.createElement('td');
      cell.textContent = text;
      cell.className = className;
      row.append(cell);
    }
    body.append(row);
  }
}
table.append(body);
const wrapper = document.createElement('div');
wrapper.className = 'table-scroll';
wrapper.append(table);
panel.querySelector('[data-live]').replaceChildren(thisLoad, wrapper);
panel.dataset.ready = 'true';
