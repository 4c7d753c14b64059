import { describe, expect, it } from 'vitest';
import { defaultPriorityConfig, type PriorityConfig } from '../../src/priority/config';
import { isUrgent, priorityHeaders } from '../../src/priority/emit';
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
  it('sends an image the browser asked for urgently whole, in request order, never behind other previews', () => {
    for (const urgency of [0, 1, 2]) {
      const headers = priorityHeaders(hero, config(), { urgency, incremental: true });
      expect(headers).toEqual({ 'cf-priority': '30/0', priority: `u=${urgency}, i` });
      expect(headers['cf-priority-change']).toBeUndefined();
    }
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

  it('never stages an urgent image below a non-urgent one, whatever the configured levels', () => {
    const level = (p: string) => Number(p.split('/')[0]);
    const c = config();
    const urgent = priorityHeaders(hero, c, { urgency: 2, incremental: true });
    const low = priorityHeaders(hero, c, { urgency: 3, incremental: true });
    const lowLevels = [
      low['cf-priority'],
      ...(low['cf-priority-change'] ?? '').split(', ').map((s) => s.split(':')[1]),
    ];
    for (const stage of lowLevels) expect(level(urgent['cf-priority'])).toBeGreaterThanOrEqual(level(stage ?? '0'));
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
