import { describe, expect, it } from 'vitest';
import { defaultPriorityConfig, readPriorityConfig } from '../../src/priority/config';
import { priorityHeaders } from '../../src/priority/emit';
import type { ImageLayout } from '../../src/priority/layout';

const jpeg = (stages: Partial<ImageLayout>): ImageLayout => ({
  format: 'jpeg',
  width: 10,
  height: 10,
  progressive: true,
  headerEndBytes: 200,
  ...stages,
});

describe('priorityHeaders', () => {
  it('writes four stages for a progressive JPEG with preview and good points', () => {
    const headers = priorityHeaders(jpeg({ previewEndBytes: 5000, goodEndBytes: 20000 }), defaultPriorityConfig);
    expect(headers).toEqual({
      'cf-priority': '30/0',
      'cf-priority-change': '200:20/1, 5000:15/1, 20000:10/0',
      priority: 'u=3, i',
    });
  });

  it('goes from preview straight to the rest when the good point is not known', () => {
    expect(priorityHeaders(jpeg({ previewEndBytes: 5000 }), defaultPriorityConfig)['cf-priority-change']).toBe(
      '200:20/1, 5000:10/0',
    );
  });

  it('goes from preview to the rest when the good stage ends where the preview ends', () => {
    const headers = priorityHeaders(jpeg({ previewEndBytes: 5000, goodEndBytes: 5000 }), defaultPriorityConfig);
    expect(headers['cf-priority-change']).toBe('200:20/1, 5000:10/0');
  });

  it('falls back to header-first when the preview end is unknown', () => {
    expect(priorityHeaders(jpeg({}), defaultPriorityConfig)['cf-priority-change']).toBe('200:10/0');
  });

  it('uses the configured priorities and urgency', () => {
    const config = { ...defaultPriorityConfig, header: '50/0', rest: '5/n', urgency: 5 } as const;
    const headers = priorityHeaders({ ...jpeg({}), format: 'png', progressive: false, headerEndBytes: 33 }, config);
    expect(headers).toEqual({ 'cf-priority': '50/0', 'cf-priority-change': '33:5/n', priority: 'u=5' });
  });
});

describe('readPriorityConfig', () => {
  it('uses the documented defaults when no vars are set', () => {
    expect(readPriorityConfig({})).toEqual({ config: defaultPriorityConfig, problems: [] });
  });

  it('reads every PRIORITY_* var', () => {
    const { config, problems } = readPriorityConfig({
      PRIORITY_MAX_BUFFER_BYTES: '65536',
      PRIORITY_MAX_WAIT_MS: '100',
      PRIORITY_HEADER: '40/0',
      PRIORITY_PREVIEW: '25/1',
      PRIORITY_GOOD: '12/1',
      PRIORITY_REST: '8/n',
      PRIORITY_URGENT_MAX_URGENCY: '1',
      PRIORITY_URGENT: '40/0',
      PRIORITY_WHOLE_MAX_URGENCY: 'off',
      PRIORITY_PREVIEW_FIRST_MAX_BYTES: '1000',
      PRIORITY_URGENT_PREVIEW: '45/0',
      PRIORITY_URGENCY: '2',
      PRIORITY_GOOD_COEFFICIENTS: '9',
      PRIORITY_GOOD_MAX_BIT_SHIFT: '0',
      PRIORITY_CACHE_ENTRIES: '0',
    });
    expect(problems).toEqual([]);
    expect(config).toEqual({
      maxBufferBytes: 65536,
      maxWaitMs: 100,
      header: '40/0',
      preview: '25/1',
      good: '12/1',
      rest: '8/n',
      urgentMaxUrgency: 1,
      urgent: '40/0',
      wholeMaxUrgency: -1,
      previewFirstMaxBytes: 1000,
      urgentPreview: '45/0',
      urgency: 2,
      goodImage: { coefficients: 9, maxBitShift: 0 },
      cacheEntries: 0,
    });
  });

  it('keeps the default and names the var for malformed values', () => {
    const { config, problems } = readPriorityConfig({
      PRIORITY_URGENCY: '9',
      PRIORITY_REST: '10/x',
      PRIORITY_MAX_BUFFER_BYTES: '-1',
    });
    expect(config).toEqual(defaultPriorityConfig);
    expect(problems).toEqual([
      'PRIORITY_MAX_BUFFER_BYTES="-1" is invalid; using 262144',
      'PRIORITY_REST="10/x" is invalid; using 10/0',
      'PRIORITY_URGENCY="9" is invalid; using 3',
    ]);
  });
});
