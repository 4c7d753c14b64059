// Injected before any page script (context.addInitScript): records the paint, LCP, layout-shift and long-task
// entries of the load (and the page's own User Timing marks) into window.__speedPage for measure.mjs to read once the page has settled.
(() => {
  const record = { fcpMs: null, lcp: [], shifts: [], longTasks: [], marks: [] };
  Object.defineProperty(window, '__speedPage', { value: record });
  const observe = (type, onEntry) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(onEntry)).observe({ type, buffered: true });
    } catch {
      // An entry type this browser lacks leaves its metric empty, reported as missing rather than zero.
    }
  };
  observe('paint', (e) => {
    if (e.name === 'first-contentful-paint') record.fcpMs = e.startTime;
  });
  observe('largest-contentful-paint', (e) => {
    const element = e.element;
    const name = element
      ? element.tagName.toLowerCase() + (element.getAttribute('src') ? ` ${element.getAttribute('src')}` : '')
      : '';
    record.lcp.push({ timeMs: e.startTime, size: e.size, element: name.slice(0, 120) });
  });
  observe('layout-shift', (e) => {
    record.shifts.push({ startTimeMs: e.startTime, value: e.value, hadRecentInput: e.hadRecentInput });
  });
  observe('mark', (e) => {
    record.marks.push({ name: e.name, timeMs: e.startTime });
  });
  observe('longtask', (e) => {
    record.longTasks.push({ startTimeMs: e.startTime, durationMs: e.duration });
  });
})();
