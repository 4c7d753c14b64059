// Runs inside the report: fills the filmstrips' images from the frame table (each distinct frame stored once) and
// draws one visual-progress chart per profile with the inlined Chart.js.
(() => {
  // Both tables are written into the report by report-html.mjs.
  /** @type {Record<string, Record<string, string[]>>} */
  const frames = JSON.parse(/** @type {string} */ (document.getElementById('speed-page-frames')?.textContent));
  /** @type {Record<string, { label: string, points: [ms: number, pct: number][] }[]>} */
  const curves = JSON.parse(/** @type {string} */ (document.getElementById('speed-page-curves')?.textContent));
  for (const section of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('section[data-profile]'))) {
    const profile = /** @type {string} */ (section.dataset.profile);
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (
      section.querySelectorAll('table.strip tr[data-variant]')
    )) {
      const images = frames[profile]?.[/** @type {string} */ (row.dataset.variant)] ?? [];
      for (const img of /** @type {NodeListOf<HTMLImageElement>} */ (row.querySelectorAll('img[data-frame]')))
        img.src = images[Number(img.dataset.frame)];
    }
  }
  const palette = ['#5a5a5f', '#8e44ad', '#0b57d0', '#e37400', '#0a7a35', '#b3261e', '#00838f'];
  window.speedPageCharts = {};
  for (const canvas of /** @type {NodeListOf<HTMLCanvasElement>} */ (
    document.querySelectorAll('canvas[data-profile]')
  )) {
    const profile = /** @type {string} */ (canvas.dataset.profile);
    const series = curves[profile] ?? [];
    // Step lines: progress holds until the next frame, as the Speed Index integral assumes.
    window.speedPageCharts[profile] = new Chart(canvas, {
      type: 'line',
      data: {
        datasets: series.map((s, i) => ({
          label: s.label,
          data: [{ x: 0, y: 0 }, ...s.points.map(([ms, pct]) => ({ x: ms / 1000, y: pct }))],
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
          // 'before' holds the previous point's value up to the next point (Chart.js's 'after' takes the next one early).
          stepped: 'before',
          pointRadius: 0,
          borderWidth: 2,
        })),
      },
      options: {
        animation: false,
        maintainAspectRatio: false,
        // @ts-expect-error -- true is Chart.js's default (parse the data); its types allow only false or a key map
        parsing: true,
        scales: {
          x: { type: 'linear', title: { display: true, text: 'seconds from navigation start' } },
          y: { min: 0, max: 100, title: { display: true, text: 'visual progress (%)' } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
  }
})();
