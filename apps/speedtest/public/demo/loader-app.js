// Demo app of the loader pages: lodash summarises a fixed data set, d3 scales it, React renders the chart.
// It runs identically as a plain script and through the BinaryAST loader; the e2e tests compare the two renders.
(() => {
  const h = React.createElement;
  const sales = [
    { region: 'north', quarter: 'Q1', units: 120 },
    { region: 'north', quarter: 'Q2', units: 95 },
    { region: 'south', quarter: 'Q1', units: 80 },
    { region: 'south', quarter: 'Q2', units: 143 },
    { region: 'east', quarter: 'Q1', units: 61 },
    { region: 'east', quarter: 'Q2', units: 77 },
    { region: 'west', quarter: 'Q1', units: 102 },
    { region: 'west', quarter: 'Q2', units: 118 },
  ];
  const totals = _.map(_.groupBy(sales, 'region'), (rows, region) => ({ region, units: _.sumBy(rows, 'units') }));
  const widthPx = 480;
  const heightPx = 240;
  const x = d3
    .scaleBand(
      totals.map((row) => row.region),
      [40, widthPx - 10],
    )
    .padding(0.2);
  const y = d3.scaleLinear([0, d3.max(totals, (row) => row.units)], [heightPx - 30, 10]).nice();
  const format = d3.format(',d');

  function Bar({ row }) {
    return h(
      'g',
      { className: 'bar', 'data-region': row.region },
      h('rect', { x: x(row.region), y: y(row.units), width: x.bandwidth(), height: y(0) - y(row.units) }),
      h('text', { x: x(row.region) + x.bandwidth() / 2, y: heightPx - 12, textAnchor: 'middle' }, row.region),
      h('text', { x: x(row.region) + x.bandwidth() / 2, y: y(row.units) - 4, textAnchor: 'middle' }, format(row.units)),
    );
  }

  function App() {
    const [clicks, setClicks] = React.useState(0);
    return h(
      'section',
      null,
      h('h2', null, `Units by region (${format(_.sumBy(totals, 'units'))} total)`),
      h(
        'svg',
        {
          width: widthPx,
          height: heightPx,
          viewBox: `0 0 ${widthPx} ${heightPx}`,
          role: 'img',
          'aria-label': `Bar chart of units by region: ${totals.map((row) => `${row.region} ${row.units}`).join(', ')}`,
        },
        y.ticks(5).map((tick) => h('line', { key: tick, x1: 40, x2: widthPx - 10, y1: y(tick), y2: y(tick) })),
        totals.map((row) => h(Bar, { key: row.region, row })),
      ),
      h('button', { type: 'button', onClick: () => setClicks(clicks + 1) }, `Clicked ${clicks} times`),
      h('p', { className: 'versions' }, `React ${React.version}, d3 ${d3.version}, lodash ${_.VERSION}`),
    );
  }

  const root = ReactDOM.createRoot(document.getElementById('root'));
  ReactDOM.flushSync(() => root.render(h(App)));
  // What the benchmark waits for: every library and the app have executed and the first render is in the DOM.
  performance.mark('app:executed');
})();
