// Injected before any page script (context.addInitScript): records the paint, LCP, layout-shift and long-task
// entries of the load (and the page's own User Timing marks) into window.__speedPage for measure.mjs to read once the page has settled.
(() => {
  /**
   * @type {{ fcpMs: number | null, lcp: { timeMs: number, size: number, element: string }[],
   *   shifts: { startTimeMs: number, value: number, hadRecentInput: boolean }[],
   *   longTasks: { startTimeMs: number, durationMs: number }[], marks: { name: string, timeMs: number }[] }}
   */
  const record = { fcpMs: null, lcp: [], shifts: [], longTasks: [], marks: [] };
  Object.defineProperty(window, '__speedPage', { value: record });
  /**
   * @template {PerformanceEntry} Entry
   * @param {string} type @param {(entry: Entry) => void} onEntry
   */
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) =>
        list.getEntries().forEach(/** @type {(entry: PerformanceEntry) => void} */ (onEntry)),
      ).observe({ type, buffered: true });
    } catch {
      // An entry type this browser lacks leaves its metric empty, reported as missing rather than zero.
    }
  };
  observe('paint', (/** @type {PerformanceEntry} */ e) => {
    if (e.name === 'first-contentful-paint') record.fcpMs = e.startTime;
  });
  observe('largest-contentful-paint', (/** @type {LargestContentfulPaint} */ e) => {
    const element = e.element;
    // The resource that painted (the srcset candidate chosen, a CSS background's image), else the src attribute.
    const source = e.url || element?.getAttribute('src') || '';
    const name = element ? element.tagName.toLowerCase() + (source ? ` ${source}` : '') : '';
    record.lcp.push({ timeMs: e.startTime, size: e.size, element: name.slice(0, 120) });
  });
  // Layout Instability entries (not in TypeScript's DOM library).
  observe('layout-shift', (/** @type {PerformanceEntry & { value: number, hadRecentInput: boolean }} */ e) => {
    record.shifts.push({ startTimeMs: e.startTime, value: e.value, hadRecentInput: e.hadRecentInput });
  });
  observe('mark', (/** @type {PerformanceMark} */ e) => {
    record.marks.push({ name: e.name, timeMs: e.startTime });
  });
  observe('longtask', (/** @type {PerformanceEntry} */ e) => {
    record.longTasks.push({ startTimeMs: e.startTime, durationMs: e.duration });
  });
})();
