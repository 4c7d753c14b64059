import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { csvRecords } from '@speedkit/speedtest/csv';

// Each test here would have caught one of the defects users reported on the speed-test page (issue 18).
const small = 'bytes=20000000&timeMs=2000&intervalMs=100&pings=10&maxDownBytes=5000000&maxUpBytes=3000000';

interface Interval {
  direction: string;
  bitsPerSecond: number;
}
interface Published {
  download: {
    bitsPerSecond: { value: number; low: number; high: number };
    streams: number;
    headlineSource: 'intervals' | 'phase-average';
    durationMs: number;
  } | null;
  intervals: Interval[];
  samples: unknown[];
}

const finished = (page: Page) =>
  page
    .waitForFunction(
      () => window.__speedkitResult ?? (window.__speedkitError ? { error: window.__speedkitError } : null),
      null,
      {
        timeout: 60_000,
      },
    )
    .then((handle) => handle.jsonValue() as Promise<Published>);

/**
 * Whether every chart shows one colour only, as the user sees it: a screenshot of each canvas's box, decoded in the
 * page (the chart worker's canvases cannot be read from the page, and a hidden one shows the page behind it).
 */
async function chartsBlank(page: Page): Promise<boolean> {
  for (const canvas of await page.locator('.charts canvas').all()) {
    const box = await canvas.boundingBox();
    if (!box) return false;
    // A full-page screenshot's clip is in page coordinates; the box is in the viewport's.
    const scrollY = await page.evaluate(() => window.scrollY);
    const png = (await page.screenshot({ fullPage: true, clip: { ...box, y: box.y + scrollY } })).toString('base64');
    const uniform = await page.evaluate(async (data) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const scratch = document.createElement('canvas');
      scratch.width = image.naturalWidth;
      scratch.height = image.naturalHeight;
      const context = scratch.getContext('2d');
      if (!context) return false;
      context.drawImage(image, 0, 0);
      const pixels = new Uint32Array(context.getImageData(0, 0, scratch.width, scratch.height).data.buffer);
      return pixels.every((pixel) => pixel === pixels[0]);
    }, png);
    if (!uniform) return false;
  }
  return true;
}

const cardState = (page: Page) =>
  page.locator('.card').evaluateAll((cards) =>
    (cards as HTMLElement[]).map((card) => ({
      metric: card.dataset.metric,
      state: card.dataset.state,
      note: card.querySelector('[data-note]')?.textContent ?? '',
    })),
  );

test('"Start again" clears the previous run: no old figure, quality, details or chart stays next to new live values', async ({
  page,
}) => {
  await page.goto(`/?${small}`);
  await finished(page);
  await page.locator('.card[data-metric="download"]').click();
  await expect(page.locator('#details')).toContainText('Headline');
  await expect.poll(() => page.evaluate(() => Boolean(window.__speedkitChartColors))).toBe(true);
  await page.getByRole('button', { name: 'Start again' }).click();
  // Straight after the click, before the new run's first figure: nothing of the old run remains.
  const states = await cardState(page);
  expect(states.filter((card) => card.state === 'final')).toEqual([]);
  await expect(page.locator('[data-experience]')).toHaveText(['—', '—', '—']);
  await expect(page.locator('#details')).toHaveText('No figure selected.');
  const blank = await chartsBlank(page);
  expect(blank).toBe(true);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeDisabled();
  await finished(page);
});

test('a finished phase shows its final figure, never "measuring…", and Stop marks live readings as not results', async ({
  page,
}) => {
  await page.goto('/?autostart=0&bytes=2000000000&timeMs=20000&pings=10&maxDownBytes=2000000');
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'download', null, { timeout: 20_000 });
  // The start pings are a first reading (the idle latency proper comes after the download), marked as such.
  await expect(page.locator('.card[data-metric="latency"]')).toHaveAttribute('data-state', 'provisional');
  await expect(page.locator('.card[data-metric="latency"] [data-note]')).toContainText('first reading');
  await expect(page.locator('.card[data-metric="latency"] [data-note]')).not.toContainText('measuring');
  await expect(page.locator('.card[data-metric="download"]')).toHaveAttribute('data-state', 'live', {
    timeout: 10_000,
  });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#status')).toContainText('Stopped');
  const states = await cardState(page);
  expect(states.filter((card) => card.note.includes('measuring'))).toEqual([]);
  expect(states.find((card) => card.metric === 'download')).toMatchObject({
    state: 'stopped',
    note: 'stopped: not a result',
  });
  expect(states.find((card) => card.metric === 'upload')?.note).toBe('not measured (stopped)');
  // Stopped before the pings after the download: the idle latency stays a first reading, never passed off as final.
  expect(states.find((card) => card.metric === 'latency')).toMatchObject({
    state: 'provisional',
    note: 'first reading only (5 pings)',
  });
});

test('one stream reads "1 stream", in the status line and on the card', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __statusSeen: string[] }).__statusSeen = seen;
    document.addEventListener('DOMContentLoaded', () => {
      const status = document.getElementById('status');
      if (!status) return;
      new MutationObserver(() => seen.push(status.textContent ?? '')).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  });
  // On an idle machine loopback moves the 5 MB cap in a few ms, faster than the status line's 200 ms redraw; at
  // 20 Mbit/s the download phase lasts about 2 s, so the line is drawn during it whatever the machine's speed.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: 20e6 / 8,
    uploadThroughput: 20e6 / 8,
  });
  await page.goto(`/?${small}&streams=1&directions=download`);
  await finished(page);
  const seen = await page.evaluate(() => (window as unknown as { __statusSeen: string[] }).__statusSeen);
  expect(seen.some((text) => text.includes('1 stream'))).toBe(true);
  expect(seen.filter((text) => /\b1 streams\b/.test(text))).toEqual([]);
  await expect(page.locator('.card[data-metric="download"] [data-note]')).toContainText('1 stream');
  await expect(page.locator('.card[data-metric="download"] [data-note]')).not.toContainText('1 streams');
});

test('a failed test says what it tried and what to check, not only "Failed to fetch"', async ({ page }) => {
  // Port 9 (discard) is closed on this machine: every request fails at the network level.
  await page.goto(`/?${small}&server=http://127.0.0.1:9`);
  await page.waitForFunction(() => window.__speedkitError, null, { timeout: 30_000 });
  const status = page.locator('#status');
  await expect(status).toContainText('while trying GET /__down?bytes=0 (latency probe) on http://127.0.0.1:9');
  await expect(status).toContainText('Check');
  await expect(status).toContainText('Failed to fetch');
  await expect(page.locator('#announcer')).toContainText('Check');
  // The whole sentence is readable: the one-line status wraps for a problem instead of cutting it off.
  expect(await status.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
});

/** WCAG relative luminance contrast of two #rrggbb colours. */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string) => {
    // #rgb as #rrggbb (the CSS minifier shortens colours).
    const hex = color.length === 4 ? `#${[...color.slice(1)].map((digit) => digit + digit).join('')}` : color;
    const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255);
    const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r ?? 0) + 0.7152 * linear(g ?? 0) + 0.0722 * linear(b ?? 0);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

for (const colorScheme of ['dark', 'light'] as const) {
  test(`charts in the ${colorScheme} scheme draw text and series at 4.5:1 or more against the page`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto(`/?${small}`);
    await finished(page);
    await expect.poll(() => page.evaluate(() => Boolean(window.__speedkitChartColors))).toBe(true);
    const colors = (await page.evaluate(() => window.__speedkitChartColors)) as Record<string, string>;
    const background = colors.background ?? '';
    for (const name of ['text', 'download', 'upload', 'idle', 'range']) {
      expect(
        contrast(colors[name] ?? '', background),
        `${name} ${colors[name]} on ${background}`,
      ).toBeGreaterThanOrEqual(4.5);
    }
    await page.screenshot({ path: test.info().outputPath(`charts-${colorScheme}.png`), fullPage: true });
    await context.close();
  });
}

test('the charts are drawn in a worker, and answer the pointer there: a legend click hides its series', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/?${small}`);
  await finished(page);
  await expect.poll(() => page.evaluate(() => window.__speedkitChartThread)).toBe('worker');
  expect(await chartsBlank(page)).toBe(false);
  const canvas = page.locator('#chart-latency');
  await canvas.scrollIntoViewIfNeeded();
  const before = await canvas.screenshot();
  // The legend sits centred at the bottom; its middle item ("Loaded (download)") covers the centre.
  const box = await canvas.boundingBox();
  await canvas.click({ position: { x: (box?.width ?? 0) / 2, y: (box?.height ?? 0) - 14 } });
  await expect.poll(async () => (await canvas.screenshot()).equals(before)).toBe(false);
});

test('without OffscreenCanvas the same charts are drawn on the page itself', async ({ page }) => {
  await page.addInitScript(() => {
    Reflect.deleteProperty(HTMLCanvasElement.prototype, 'transferControlToOffscreen');
  });
  await page.goto(`/?${small}`);
  await finished(page);
  await expect.poll(() => page.evaluate(() => window.__speedkitChartThread)).toBe('main');
  expect(await page.evaluate(() => Boolean(window.__speedkitChartColors))).toBe(true);
  expect(await chartsBlank(page)).toBe(false);
});

test('screen readers hear phases and the outcome, not every progress tick', async ({ page }) => {
  await page.addInitScript(() => {
    const announced: string[] = [];
    (window as unknown as { __announced: string[] }).__announced = announced;
    document.addEventListener('DOMContentLoaded', () => {
      const announcer = document.getElementById('announcer');
      if (!announcer) return;
      new MutationObserver(() => announced.push(announcer.textContent ?? '')).observe(announcer, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
  });
  await page.goto(`/?${small}`);
  const result = (await finished(page)) as { loss?: unknown };
  const announced = await page.evaluate(() => (window as unknown as { __announced: string[] }).__announced);
  expect(announced).toEqual([
    'Measuring idle latency.',
    'Measuring download.',
    // The idle pings after the download (the idle latency proper) are a phase of their own on screen too.
    'Measuring idle latency.',
    'Measuring upload.',
    // Only when the server has a TURN relay (a .dev.vars left by `npm start`): the loss phase is announced too.
    ...(result.loss ? ['Measuring packet loss.'] : []),
    expect.stringMatching(/^Test finished: download .+, upload .+, idle latency .+\.$/),
  ]);
  // The live figures go to a status line that is not a live region; it is the only other status text.
  await expect(page.locator('#status')).not.toHaveAttribute('aria-live');
  await expect(page.locator('[aria-live]')).toHaveCount(1);
});

test('the CSV alone reproduces the page: pings without a direction, goodput intervals, and every figure', async ({
  page,
}) => {
  await page.goto(`/?${small}`);
  const result = await finished(page);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await downloadPromise).path()) ?? '', 'utf8');
  const columns = csv.slice(0, csv.indexOf('\r\n')).split(',');
  const rows = csvRecords(csv);
  for (const row of rows) expect(Object.keys(row)).toHaveLength(columns.length);
  const pings = rows.filter((row) => row.record === 'ping');
  expect(pings.length).toBeGreaterThan(0);
  expect(pings.every((row) => row.direction === '')).toBe(true);
  expect(rows.filter((row) => row.record === 'interval')).toHaveLength(result.intervals.length);
  const marked = rows.filter(
    (row) => row.record === 'interval' && row.direction === 'download' && row.in_headline === '1',
  );
  const summary = rows.find((row) => row.record === 'summary' && row.metric === 'download');
  expect(Number(summary?.value)).toBeCloseTo(result.download?.bitsPerSecond.value ?? 0, -1);
  if (result.download?.headlineSource === 'phase-average') {
    // No interval of the last step closed: the headline is the phase's average, and the CSV says how to get it.
    expect(marked).toHaveLength(0);
    const clientBytes = Number(rows.find((row) => row.metric === 'download_client_bytes')?.value);
    expect(summary?.basis).toContain('phase average');
    const averageBitsPerSecond = (clientBytes * 8 * 1000) / (result.download?.durationMs ?? Number.NaN);
    expect(Math.abs(averageBitsPerSecond - Number(summary?.value)) / Number(summary?.value)).toBeLessThan(1e-6);
  } else {
    const mean = marked.reduce((sum, row) => sum + Number(row.bits_per_second), 0) / marked.length;
    expect(Math.abs(mean - Number(summary?.value)) / Number(summary?.value)).toBeLessThan(1e-6);
  }
  const metrics = rows.filter((row) => row.record === 'summary').map((row) => row.metric);
  for (const metric of ['upload', 'idle_latency', 'jitter', 'download_loaded_latency', 'rpm', 'quality_gaming']) {
    expect(metrics).toContain(metric);
  }
});

test('the download details state the headline statistic and an interval that never goes below zero', async ({
  page,
}) => {
  await page.goto(`/?${small}`);
  const result = await finished(page);
  await page.locator('.card[data-metric="download"]').click();
  const details = page.locator('#details');
  await expect(details).toContainText(
    result.download?.headlineSource === 'phase-average'
      ? /Headline = the phase's average rate/
      : /Headline = mean of \d+ goodput intervals? of 100 ms at \d+ streams?, all streams/,
  );
  const interval = await details.locator('dt', { hasText: '95% interval' }).locator('+ dd').textContent();
  // One unit for both ends, the figure's own: "0.94 – 1.31 Gbps", "412.3 – 480.1 Mbps".
  expect(interval).toMatch(/^(\d[\d.]* – \d[\d.]* (Gbps|Mbps|kbps)|none from a single interval) \(/);
  expect(interval).not.toContain('-');
  expect(result.download?.bitsPerSecond.low).toBeGreaterThanOrEqual(0);
  // Charts say whether they show one stream's share or all streams together.
  await expect(page.locator('figcaption').filter({ hasText: 'per stream' })).toHaveCount(2);
  await expect(page.locator('figcaption').filter({ hasText: 'all streams together' })).toHaveCount(1);
});

/** Layout shifts (CLS, session-less sum) and long tasks, recorded from the first paint by observers in the page. */
async function observeLayout(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const record = { shift: 0, shifts: [] as string[], longTasksMs: [] as number[] };
    (window as unknown as { __layout: typeof record }).__layout = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        record.shift += entry.value;
        const node = entry.sources?.[0]?.node;
        record.shifts.push(
          `${entry.value.toFixed(4)} ${node instanceof Element ? node.outerHTML.slice(0, 60) : node?.nodeName}`,
        );
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) record.longTasksMs.push(Math.round(entry.duration));
    }).observe({ type: 'longtask', buffered: true });
  });
}

for (const width of [390, 1280]) {
  test(`at ${width} px an autostarted test shows the data notice first, does not shift the layout, and fits the width`, async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    await observeLayout(page);
    await page.goto(`/?${small}`);
    const notice = page.locator('#data-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('starts by itself and uses up to 40.0 MB');
    await expect(notice).toContainText('Stop');
    // The notice is in the first screenful, above the results, before the test has moved anything.
    const box = await notice.boundingBox();
    expect((box?.y ?? 1e9) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
    await page.screenshot({ path: testInfo.outputPath(`start-${width}.png`) });
    // Chart.js (most of the page's script; one 581 ms task on a throttled phone) loads only once the test is done.
    await page.waitForFunction(() => window.__speedkitProgress?.phase === 'upload', null, { timeout: 30_000 });
    // The charts' scripts: charts-*.js, the chart worker and Chart.js (in the worker's file or its own chunk).
    const chartScripts = () =>
      page.evaluate(
        () => performance.getEntriesByType('resource').filter((entry) => /\/assets\/chart/.test(entry.name)).length,
      );
    // Read in one step with the state, so a test that finished meanwhile cannot make this flaky.
    const during = await page.evaluate(() => ({
      done: Boolean(window.__speedkitResult),
      charts: performance.getEntriesByType('resource').filter((entry) => /\/assets\/chart/.test(entry.name)).length,
    }));
    expect(during.done ? 0 : during.charts).toBe(0);
    await finished(page);
    await expect.poll(() => page.evaluate(() => Boolean(window.__speedkitChartColors))).toBe(true);
    expect(await chartScripts()).toBeGreaterThanOrEqual(1);
    const layout = (await page.evaluate(() => (window as unknown as { __layout: unknown }).__layout)) as {
      shift: number;
      shifts: string[];
      longTasksMs: number[];
    };
    console.log(
      `layout at ${width} px: CLS ${layout.shift.toFixed(4)}; long tasks (ms) ${JSON.stringify(layout.longTasksMs)}`,
    );
    testInfo.annotations.push({ type: 'cls', description: layout.shift.toFixed(4) });
    testInfo.annotations.push({ type: 'long tasks ms', description: JSON.stringify(layout.longTasksMs) });
    expect(layout.shift, layout.shifts.join('\n')).toBeLessThan(0.05);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: testInfo.outputPath(`done-${width}.png`), fullPage: true });
    await context.close();
  });
}

test('with Data Saver on (navigator.connection.saveData) the test waits for a click and says why', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'connection', { value: { saveData: true }, configurable: true });
  });
  const measured: string[] = [];
  page.on('request', (request) => {
    if (/\/__(down|up)/.test(request.url())) measured.push(request.url());
  });
  await page.goto(`/?${small}`);
  await expect(page.locator('#data-notice')).toContainText('Data saver is on, so the test did not start by itself');
  await page.waitForTimeout(1500);
  expect(measured).toEqual([]);
  await expect(page.getByRole('button', { name: 'Start test' })).toBeEnabled();
});

test('past runs stay in this browser only: listed after a reload, cleared on request, nothing sent anywhere', async ({
  page,
}) => {
  const requests: string[] = [];
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  await page.goto(`/?${small}&directions=download`);
  await finished(page);
  await expect(page.locator('#history tbody tr')).toHaveCount(1);
  await page.goto('/?autostart=0');
  await expect(page.locator('#history tbody tr')).toHaveCount(1);
  const unexpected = requests.filter(
    (path) =>
      !/^\/(__down|__up|meta|turn-creds|favicon\.(svg|ico)|site\.css|assets\/.*|)$/.test(path) &&
      !path.endsWith('.html'),
  );
  expect(unexpected).toEqual([]);
  await page.getByRole('button', { name: 'Clear history' }).click();
  await expect(page.locator('#history')).toHaveText('No past runs in this browser yet.');
  await page.reload();
  await expect(page.locator('#history')).toHaveText('No past runs in this browser yet.');
});

test('every figure has a one-line explanation of what it is and what good looks like', async ({ page }) => {
  await page.goto('/?autostart=0');
  for (const metric of ['download', 'upload', 'latency', 'jitter', 'loadedDown', 'loadedUp', 'rpm']) {
    const text = (await page.locator(`[data-explains="${metric}"]`).textContent()) ?? '';
    expect(text.length, metric).toBeGreaterThan(40);
    expect(text, metric).toMatch(/good|great|better|fast/);
  }
});

test('/baseline.html shows @cloudflare/speedtest and speedkit side by side in the same units', async ({ page }) => {
  await page.goto(`/baseline.html?preset=small&${small}`);
  await page.waitForFunction(
    () => window.__baselineResult && (window.__speedkitResult || window.__speedkitError),
    null,
    {
      timeout: 90_000,
    },
  );
  expect(await page.evaluate(() => window.__speedkitError)).toBeUndefined();
  const rows = await page
    .locator('#comparison tbody tr')
    .evaluateAll((trs) =>
      (trs as HTMLElement[]).map((tr) => [
        tr.dataset.figure,
        ...Array.from(tr.querySelectorAll('td')).map((td) => td.textContent),
      ]),
    );
  const byFigure = new Map(rows.map(([figure, ...values]) => [figure, values]));
  for (const figure of ['download', 'upload']) {
    for (const value of byFigure.get(figure) ?? []) expect(value, figure).toMatch(/^\d[\d.]* (Gbps|Mbps|kbps)$/);
  }
  for (const value of byFigure.get('latency') ?? []) expect(value).toMatch(/^\d[\d.]* ms$/);
  for (const value of byFigure.get('bytes') ?? []) expect(value).toMatch(/^\d[\d.]* (GB|MB|kB)$/);
  await page.screenshot({ path: test.info().outputPath('baseline-compare.png'), fullPage: true });
});
