import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profiles } from '../profiles.mjs';
import { reportHtml } from '../report-html.mjs';
import { summarise } from '../summary.mjs';
import { allVariants } from '../variants.mjs';
import { launchChromium, type TestBrowser } from './test-chromium';

// The report's visual-progress chart in real Chromium: a curve must hold each frame's progress until the next frame,
// as the Speed Index integral and the filmstrip do; a page blank until 1 s must not be drawn as complete from 0 s.
let work = '';
let browser: TestBrowser;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'speed-page-chart-'));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

type ReportData = Parameters<typeof reportHtml>[0];

/** The report of `fields`, the rest as every test here has it, written as `name` in the work folder; its path. */
function writeReport(
  name: string,
  fields: Pick<ReportData, 'runsPerVariant' | 'summary' | 'filmstrips' | 'variants'> & { url?: string },
) {
  const file = join(work, name);
  const data = { url: 'http://example.test/', date: '2026-11-28', profiles, rttMechanism: 'test', notes: [] };
  writeFileSync(file, reportHtml({ ...data, ...fields }));
  return file;
}

/** A page of its own showing the report at `file`. */
async function openReport(file: string, options?: Parameters<TestBrowser['newPage']>[0]) {
  const page = await browser.newPage(options);
  await page.goto(pathToFileURL(file).href);
  return page;
}

describe('visual-progress chart', () => {
  it('holds a frame’s progress until the next frame (blank until the first change)', async () => {
    const variants = allVariants.filter((v) => v.id === 'origin');
    const runs = [{ profile: 'desktop', variant: 'origin', run: 1, speedIndexMs: 1000, lcpMs: 1000 }];
    const summary = summarise(runs, variants, ['desktop']);
    // Blank until 1 s, then complete.
    summary[0].rows[0].progress = [
      [1000, 100],
      [2000, 100],
    ];
    const page = await openReport(
      writeReport('report.html', { runsPerVariant: 1, summary, filmstrips: { desktop: {} }, variants }),
    );
    // The curve's colour at 0.5 s: at 0 % (blank) it must be drawn, at 100 % it must not.
    const inkAt = await page.evaluate(() => {
      // @ts-expect-error -- set by report-client.js
      const chart = window.speedPageCharts.desktop;
      const canvas = chart.canvas as HTMLCanvasElement;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      const scale = canvas.width / canvas.getBoundingClientRect().width;
      const inked = (seconds: number, pct: number) => {
        const x = Math.round(chart.scales.x.getPixelForValue(seconds) * scale);
        const y = Math.round(chart.scales.y.getPixelForValue(pct) * scale);
        const { data } = context.getImageData(x - 1, y - 3, 3, 7);
        // The first series is drawn in #5a5a5f (dark grey, mostly opaque where anti-aliased); the canvas is transparent.
        for (let i = 0; i < data.length; i += 4) if (data[i] < 130 && data[i + 3] > 150) return true;
        return false;
      };
      return { blankAtHalf: inked(0.5, 0), completeAtHalf: inked(0.5, 100), completeAt15: inked(1.5, 100) };
    });
    await page.close();
    expect(inkAt).toEqual({ blankAtHalf: true, completeAtHalf: false, completeAt15: true });
  }, 60_000);
});

describe('filmstrips', () => {
  // A variant whose every run failed has no strip: its "no successful run" sat in the first frame column alone and
  // widened it, so the other rows' 0.0 s frame stood apart from the rest (until 2026-11-28).
  it('keep every frame column the same width when a variant has no successful run', async () => {
    const variants = allVariants.filter((v) => v.id === 'origin' || v.id === 'worker-off');
    const runs = [
      { profile: 'mobile', variant: 'origin', run: 1, error: 'the page did not load' },
      { profile: 'mobile', variant: 'worker-off', run: 1, speedIndexMs: 500, lcpMs: Number.NaN },
    ];
    const summary = summarise(runs, variants, ['mobile']);
    const strip = {
      run: 1,
      lcpMs: Number.NaN,
      visuallyComplete100Ms: 500,
      stepMs: 100,
      images: [],
      frameOf: [-1, -1, -1, -1, -1, -1],
    };
    const page = await openReport(
      writeReport('strips.html', {
        runsPerVariant: 1,
        summary,
        filmstrips: { mobile: { 'worker-off': strip } },
        variants,
      }),
    );
    const widths = await page.$$eval('table.strip tr[data-variant="worker-off"] td', (cells) =>
      cells.map((cell) => Math.round(cell.getBoundingClientRect().width)),
    );
    await page.close();
    expect(widths).toHaveLength(6);
    expect(new Set(widths).size).toBe(1);
  }, 60_000);
});

describe('metrics table', () => {
  // At 1366 px (the desktop profile's screen, a common laptop's) the Bytes and Requests columns needed horizontal
  // scrolling (until 2026-11-28: the table was ~1480 px wide with the demo's numbers). Every variant, and numbers as
  // wide as a heavy page's on the mobile link give: seconds past 10, intervals across units, megabytes past 10,
  // three-digit request counts, failed runs.
  const variants = allVariants;
  const spread = (low: number, high: number, i: number) => low + ((high - low) * i) / 4;
  const runs = ['desktop', 'mobile'].flatMap((profile) =>
    variants.flatMap((variant) =>
      [0, 1, 2, 3, 4, 5, 6].map((i) =>
        i >= 5 && variant.id === 'binast'
          ? { profile, variant: variant.id, run: i + 1, error: 'the page did not load' }
          : {
              profile,
              variant: variant.id,
              run: i + 1,
              protocol: variant.hops.length > 0 ? 'h2' : 'http/1.1',
              ttfbMs: spread(950, 1020, i % 5),
              fcpMs: spread(8_750, 10_240, i % 5),
              lcpMs: spread(9_870, 12_340, i % 5),
              speedIndexMs: spread(9_640, 11_870, i % 5),
              visuallyComplete85Ms: spread(9_990, 12_480, i % 5),
              visuallyComplete100Ms: spread(11_230, 14_560, i % 5),
              tbtMs: spread(980, 1_230, i % 5),
              cls: spread(0.123, 0.356, i % 5),
              totalBytes: spread(998_000, 10_240_000, i % 5),
              requests: spread(98, 123, i % 5),
            },
      ),
    ),
  );
  const summary = summarise(runs, variants, ['desktop', 'mobile']);
  let file = '';

  beforeAll(() => {
    file = writeReport('metrics.html', {
      url: 'https://www.example.test/a/rather/long/article/path?with=query',
      runsPerVariant: 7,
      summary,
      filmstrips: { desktop: {}, mobile: {} },
      variants,
    });
  });

  it('fits a 1366×768 screen without scrolling, every column shown', async () => {
    const page = await openReport(file, { viewport: { width: 1366, height: 768 } });
    const regions = await page.$$eval('table.metrics', (tables) =>
      tables.map((table) => {
        const region = table.parentElement as HTMLElement;
        const cell = (variant: string, selector: string) =>
          table.querySelector(`tr[data-variant="${variant}"] ${selector}`)?.textContent;
        return {
          fits: region.scrollWidth <= region.clientWidth,
          columns: table.querySelectorAll('tr:first-child th').length,
          protocol: cell('origin', '[data-protocol]'),
          failed: cell('binast', '[data-runs] small'),
        };
      }),
    );
    await page.close();
    // Variant (its protocol under it), Runs (failed ones under them) and the ten metrics, Bytes and Requests last.
    const shown = { fits: true, columns: 12, protocol: 'http/1.1', failed: '2 failed' };
    expect(regions).toEqual([shown, shown]);
  }, 60_000);

  it('scrolls on a 390 px phone under a variant column that stays in view', async () => {
    const page = await openReport(file, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const got = await page.$eval('table.metrics', (table) => {
      const region = table.parentElement as HTMLElement;
      const variant = table.querySelector('th[scope="row"]') as HTMLElement;
      region.scrollLeft = region.scrollWidth;
      return {
        pageFits: document.documentElement.scrollWidth <= window.innerWidth,
        scrolled: region.scrollLeft > 0,
        variantInView: Math.abs(variant.getBoundingClientRect().left - region.getBoundingClientRect().left) <= 2,
      };
    });
    await page.close();
    expect(got).toEqual({ pageFits: true, scrolled: true, variantInView: true });
  }, 60_000);
});
