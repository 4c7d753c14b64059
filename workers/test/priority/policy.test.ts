import { describe, expect, it } from 'vitest';
import { defaultPriorityConfig, type PriorityConfig } from '../../src/priority/config';
import { isUrgent, priorityHeaders, scheduleOf } from '../../src/priority/emit';
import type { ImageLayout } from '../../src/priority/layout';

// The scheduling policy: which images keep the browser's order, and how the others are staged.
const hero: ImageLayout = {
  format: 'jpeg',
  width: 1600,
  height: 1835,
  progressive: true,
  headerEndBytes: 600,
  previewEndBytes: 30_000,
  goodEndBytes: 150_000,
};
const png: ImageLayout = { format: 'png', width: 600, height: 400, progressive: false, headerEndBytes: 33 };
const config = (overrides: Partial<PriorityConfig> = {}): PriorityConfig => ({
  ...defaultPriorityConfig,
  ...overrides,
});

describe('priority policy', () => {
  it('sends an image the page named (u=0, u=1: fetchpriority=high, preloads) whole, never behind other previews', () => {
    for (const urgency of [0, 1]) {
      const headers = priorityHeaders(hero, config(), { urgency, incremental: true });
      expect(headers).toEqual({ 'cf-priority': '30/0', priority: `u=${urgency}, i` });
      expect(headers['cf-priority-change']).toBeUndefined();
    }
  });

  it('sends an urgent image’s small preview (u=2, ends ≤ 16 KiB) just above the critical responses, its rest with them', () => {
    const signal = { urgency: 2, incremental: true };
    expect(scheduleOf(signal, config())).toBe('preview-first');
    const thumb: ImageLayout = { ...hero, previewEndBytes: 2_500, goodEndBytes: 15_000 };
    expect(priorityHeaders(thumb, config(), signal, 'preview-first')).toEqual({
      'cf-priority': '31/0',
      'cf-priority-change': '2500:30/0',
      priority: 'u=2, i',
    });
    // Nothing to send ahead without a preview: whole, in the browser's order.
    expect(priorityHeaders(png, config(), { urgency: 2, incremental: false }, 'preview-first')).toEqual({
      'cf-priority': '30/0',
      priority: 'u=2',
    });
  });

  it('sends an urgent image with a large preview (the likely LCP image) whole, and a page-named one always', () => {
    const medium = { urgency: 2, incremental: true };
    // The hero's preview ends at 30,000 bytes: over 16 KiB, so it keeps the browser's order, whole.
    expect(priorityHeaders(hero, config(), medium, 'preview-first')).toEqual({
      'cf-priority': '30/0',
      priority: 'u=2, i',
    });
    expect(scheduleOf({ urgency: 1, incremental: true }, config())).toBe('whole');
    expect(scheduleOf({ urgency: 3, incremental: true }, config())).toBe('staged');
    expect(scheduleOf(undefined, config())).toBe('staged');
    expect(scheduleOf(medium, config({ previewFirstMaxBytes: 0 }))).toBe('whole');
    expect(priorityHeaders(hero, config({ previewFirstMaxBytes: 64 * 1024 }), medium, 'preview-first')).toEqual({
      'cf-priority': '31/0',
      'cf-priority-change': '30000:30/0',
      priority: 'u=2, i',
    });
  });

  it('stages images the browser marked Low (urgency 3+): header, shared previews, then remainders one at a time', () => {
    const headers = priorityHeaders(hero, config(), { urgency: 3, incremental: true });
    expect(headers).toEqual({
      'cf-priority': '30/0',
      'cf-priority-change': '600:20/1, 30000:15/1, 150000:10/0',
      priority: 'u=3, i',
    });
    expect(priorityHeaders(png, config(), { urgency: 5, incremental: false })).toEqual({
      'cf-priority': '30/0',
      'cf-priority-change': '33:10/0',
      priority: 'u=5',
    });
  });

  it('stages every image when the request carries no signal (Cloudflare’s published design, remainders in order)', () => {
    expect(priorityHeaders(hero, config())['cf-priority-change']).toBe('600:20/1, 30000:15/1, 150000:10/0');
    expect(isUrgent(undefined, config())).toBe(false);
  });

  it('never sends an urgent image after a non-urgent one’s preview, good scans or rest, whatever its schedule', () => {
    const level = (p: string | undefined) => Number((p ?? '0').split('/')[0]);
    const stages = (h: { 'cf-priority': string; 'cf-priority-change'?: string }) => [
      h['cf-priority'],
      ...(h['cf-priority-change']?.split(', ') ?? []).map((s) => s.split(':')[1]),
    ];
    const c = config();
    // A Low image's header stage (a few hundred bytes, for layout) may go first; everything after it may not.
    const lowAfterHeader = stages(priorityHeaders(hero, c, { urgency: 3, incremental: true })).slice(1);
    for (const urgency of [0, 1, 2]) {
      for (const schedule of ['whole', 'preview-first'] as const) {
        for (const mine of stages(priorityHeaders(hero, c, { urgency, incremental: true }, schedule))) {
          for (const theirs of lowAfterHeader) expect(level(mine)).toBeGreaterThan(level(theirs));
        }
      }
    }
  });

  it('follows PRIORITY_URGENT_MAX_URGENCY and PRIORITY_URGENT', () => {
    const strict = config({ urgentMaxUrgency: 0, urgent: '40/0' });
    expect(isUrgent({ urgency: 0, incremental: false }, strict)).toBe(true);
    expect(isUrgent({ urgency: 1, incremental: false }, strict)).toBe(false);
    expect(priorityHeaders(hero, strict, { urgency: 0, incremental: false })).toEqual({
      'cf-priority': '40/0',
      priority: 'u=0',
    });
    const off = config({ urgentMaxUrgency: -1 });
    expect(isUrgent({ urgency: 0, incremental: true }, off)).toBe(false);
    expect(priorityHeaders(hero, off, { urgency: 0, incremental: true })['cf-priority-change']).toBe(
      '600:20/1, 30000:15/1, 150000:10/0',
    );
  });
});
