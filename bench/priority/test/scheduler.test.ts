import { describe, expect, it } from 'vitest';
import {
  bytesUntilChange,
  currentPriority,
  type Mode,
  parseCfPriority,
  parseCfPriorityChange,
  parseRfc9218,
  pickNext,
  priorityFor,
  type ScheduledStream,
} from '../lab/scheduler.mjs';

const stream = (seq: number, headers: Record<string, string>, mode: Mode = 'cf', bytes = 10_000): ScheduledStream => ({
  seq,
  sentBytes: 0,
  queuedBytes: bytes,
  lastServed: 0,
  ...priorityFor(mode, headers),
});

/** Runs the policy to completion in `pieceBytes` pieces and returns which stream got each piece. */
function simulate(streams: ScheduledStream[], pieceBytes = 100) {
  const order: [seq: number, sentBytes: number][] = [];
  for (let tick = 1; tick < 100_000; tick++) {
    const next = pickNext(streams);
    if (!next) break;
    const size = Math.min(pieceBytes, next.queuedBytes, bytesUntilChange(next));
    next.queuedBytes -= size;
    next.sentBytes += size;
    next.lastServed = tick;
    order.push([next.seq, next.sentBytes]);
  }
  return order;
}

describe('lab scheduler: header parsing', () => {
  it('reads cf-priority and treats concurrency 0 as exclusive', () => {
    expect(parseCfPriority('30/0')).toEqual({ level: 30, exclusive: true });
    expect(parseCfPriority('10/n')).toEqual({ level: 10, exclusive: false });
    expect(parseCfPriority('garbage')).toBeUndefined();
  });

  it('reads cf-priority-change in offset order and skips malformed parts', () => {
    expect(parseCfPriorityChange('900:10/n, x:1/1, 200:20/1')).toEqual([
      { offsetBytes: 200, priority: { level: 20, exclusive: false } },
      { offsetBytes: 900, priority: { level: 10, exclusive: false } },
    ]);
  });

  it('maps RFC 9218 urgency onto levels with the RFC defaults', () => {
    expect(parseRfc9218('u=1, i')).toEqual({ level: 6, exclusive: false });
    expect(parseRfc9218(undefined)).toEqual({ level: 4, exclusive: true });
  });

  it('ignores the headers in fifo and round-robin modes', () => {
    const headers = { 'cf-priority': '30/0', 'cf-priority-change': '10:10/n', priority: 'u=0' };
    expect(priorityFor('fifo', headers)).toEqual({ base: { level: 10, exclusive: true }, changes: [] });
    expect(priorityFor('round-robin', headers)).toEqual({ base: { level: 10, exclusive: false }, changes: [] });
  });
});

describe('lab scheduler: which bytes go next', () => {
  it('switches priority exactly at the change offsets', () => {
    const s = stream(0, { 'cf-priority': '30/0', 'cf-priority-change': '200:20/1' });
    expect(bytesUntilChange(s)).toBe(200);
    s.sentBytes = 200;
    expect(currentPriority(s)).toEqual({ level: 20, exclusive: false });
    expect(bytesUntilChange(s)).toBe(Number.POSITIVE_INFINITY);
  });

  it('sends fifo streams one after another in request order', () => {
    const order = simulate([stream(0, {}, 'fifo', 300), stream(1, {}, 'fifo', 300)]);
    expect(order.map(([seq]) => seq)).toEqual([0, 0, 0, 1, 1, 1]);
  });

  it('interleaves round-robin streams piece by piece', () => {
    const order = simulate([stream(0, {}, 'round-robin', 300), stream(1, {}, 'round-robin', 300)]);
    expect(order.map(([seq]) => seq)).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it('sends every header, then every preview, then the rest, with cf headers', () => {
    const headers = { 'cf-priority': '30/0', 'cf-priority-change': '200:20/1, 1000:10/n' };
    const order = simulate([stream(0, headers), stream(1, headers), stream(2, headers)]);
    const lastHeader = Math.max(...[0, 1, 2].map((seq) => order.findIndex(([s, sent]) => s === seq && sent === 200)));
    const firstPreview = order.findIndex(([, sent]) => sent > 200);
    const lastPreview = Math.max(...[0, 1, 2].map((seq) => order.findIndex(([s, sent]) => s === seq && sent === 1000)));
    const firstRest = order.findIndex(([, sent]) => sent > 1000);
    expect(lastHeader).toBeLessThan(firstPreview);
    expect(lastPreview).toBeLessThan(firstRest);
    expect(order.at(-1)?.[1]).toBe(10_000);
  });
});
