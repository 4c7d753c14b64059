import { describe, expect, it } from 'vitest';
import { ReceiveTimeline } from '../../src/speedtest/receive-timeline';

describe('ReceiveTimeline', () => {
  it('starts at 0 ms and 0 bytes and counts bytes up to each read', () => {
    const timeline = new ReceiveTimeline(5);
    timeline.add(10, 100);
    timeline.add(20, 50);
    expect(timeline.points()).toEqual([
      [0, 0],
      [10, 100],
      [20, 150],
    ]);
    expect(timeline.bytes).toBe(150);
  });

  it('merges reads within the step into the latest point, which moves to the later read', () => {
    const timeline = new ReceiveTimeline(5);
    timeline.add(10, 100);
    timeline.add(12, 100);
    timeline.add(14.9, 100);
    timeline.add(15, 100);
    expect(timeline.points()).toEqual([
      [0, 0],
      [14.9, 300],
      [15, 400],
    ]);
  });

  it('keeps one point per step on a steady stream of reads, not one point that drifts forever', () => {
    const timeline = new ReceiveTimeline(5);
    for (let ms = 1; ms <= 100; ms++) timeline.add(ms, 10);
    const points = timeline.points();
    expect(points.length).toBeGreaterThanOrEqual(20);
    expect(points.at(-1)).toEqual([100, 1000]);
  });

  it('keeps the first read apart from the opening point even when it comes at once', () => {
    const timeline = new ReceiveTimeline(5);
    timeline.add(0.04, 64);
    expect(timeline.points()).toEqual([
      [0, 0],
      [0, 64],
    ]);
  });

  it('never lets time run backwards', () => {
    const timeline = new ReceiveTimeline(5);
    timeline.add(30, 10);
    timeline.add(20, 10);
    const times = timeline.points().map(([ms]) => ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
