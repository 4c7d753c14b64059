import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs } from '../../lib/chromium.mjs';
import { profiles } from '../profiles.mjs';
import { reportHtml } from '../report-html.mjs';
import { summarise } from '../summary.mjs';
import { allVariants } from '../variants.mjs';

// The report's visual-progress chart in real Chromium: a curve must hold each frame's progress until the next frame,
// as the Speed Index integral and the filmstrip do; a page blank until 1 s must not be drawn as complete from 0 s.
let work = '';
let browser: Awaited<ReturnType<typeof chromium.launch>>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'speed-page-chart-'));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...chromiumArgs],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  rmSync(work, { recursive: true, force: true });
});

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
    const html = reportHtml({
      url: 'http://example.test/',
      date: '2026-11-28',
      runsPerVariant: 1,
      summary,
      filmstrips: { desktop: {} },
      variants,
      profiles,
      rttMechanism: 'test',
      notes: [],
    });
    const file = join(work, 'report.html');
    writeFileSync(file, html);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
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
    const html = reportHtml({
      url: 'http://example.test/',
      date: '2026-11-28',
      runsPerVariant: 1,
      summary,
      filmstrips: { mobile: { 'worker-off': strip } },
      variants,
      profiles,
      rttMechanism: 'test',
      notes: [],
    });
    const file = join(work, 'strips.html');
    writeFileSync(file, html);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(file).href);
    const widths = await page.$$eval('table.strip tr[data-variant="worker-off"] td', (cells) =>
      cells.map((cell) => Math.round(cell.getBoundingClientRect().width)),
    );
    await page.close();
    expect(widths).toHaveLength(6);
    expect(new Set(widths).size).toBe(1);
  }, 60_000);
});
