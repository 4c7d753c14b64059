// The demo page's own script: shapes data with lodash, draws a bar chart with d3, and does some main-thread work
// a real page does at start-up (here: building a search index), so Total Blocking Time has something to see.
(() => {
  const words = [];
  for (let i = 0; i < 60000; i++) words.push(`w${(i * 7919) % 10007}`);
  const index = _.countBy(words);
  const data = _.map({ HTML: 6, CSS: 2, JS: 380, Images: 900, Fonts: 0 }, (kB, type) => ({
    type,
    kB: kB + (index.w1 || 0) * 0,
  }));
  const width = 640;
  const height = 200;
  const x = d3
    .scaleBand()
    .domain(data.map((d) => d.type))
    .range([40, width])
    .padding(0.2);
  const y = d3
    .scaleLinear()
    .domain([0, d3.max(data, (d) => d.kB)])
    .range([height - 20, 10]);
  const svg = d3.select('#chart').append('svg').attr('viewBox', `0 0 ${width} ${height}`).attr('width', '100%');
  svg
    .selectAll('rect')
    .data(data)
    .join('rect')
    .attr('x', (d) => x(d.type))
    .attr('y', (d) => y(d.kB))
    .attr('width', x.bandwidth())
    .attr('height', (d) => height - 20 - y(d.kB));
  svg
    .selectAll('text')
    .data(data)
    .join('text')
    .attr('x', (d) => x(d.type) + x.bandwidth() / 2)
    .attr('y', height - 4)
    .attr('text-anchor', 'middle')
    .text((d) => d.type);
})();
