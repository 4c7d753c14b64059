// Redraws report.html, summary.json and runs.csv of a finished measurement from its runs.json and filmstrips.json
// (e.g. after a change to the report), without measuring again.
//   node bench/speed-page/render.mjs bench/results/speed-page/demo/<time>
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeResults } from './results.mjs';

const dir = resolve(process.argv[2] ?? '');
const { setup, runs } = JSON.parse(readFileSync(join(dir, 'runs.json'), 'utf8'));
const filmstrips = JSON.parse(readFileSync(join(dir, 'filmstrips.json'), 'utf8'));
writeResults({
  url: setup.url,
  site: '',
  outDir: dir,
  measured: { runs, filmstrips, variants: setup.variants, rttMechanism: setup.rtt },
  runsPerVariant: setup.runsPerVariant,
  notes: setup.notes,
});
process.stdout.write(`report: ${join(dir, 'report.html')}\n`);
