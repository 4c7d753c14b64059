// npm run bench:priority [-- --no-lab | --lab-only] [-- --runs N]
// 1. Parse throughput (MB/s) and bytes held back before the first byte, per demo image.
// 2. The perceived-speed lab (lab/run.mjs): Speed Index with and without the headers over a 2 Mbit/s link.
import { loadPriorityCore } from './load-core.mjs';
import { parseBench } from './parse.mjs';
import { printTable, resultsDir, writeResults } from './report.mjs';

const args = process.argv.slice(2);

if (!args.includes('--lab-only')) {
  const core = await loadPriorityCore();
  const { rows, rates } = await parseBench(core);
  printTable('Offsets and read-ahead per demo image (default config, origin yields 16 KiB reads)', rows, [
    'image',
    'bytes',
    'headerEndBytes',
    'previewEndBytes',
    'previewPct',
    'goodEndBytes',
    'goodPct',
    'bufferedBytes',
    'bufferedPct',
  ]);
  printTable('Parse throughput over every JPEG fixture (median of 7 rounds)', rates, [
    'mode',
    'chunkBytes',
    'files',
    'totalBytes',
    'mbPerSecond',
  ]);
  writeResults('parse-offsets', rows, { node: process.version, date: new Date().toISOString() });
  writeResults('parse-throughput', rates, { node: process.version, date: new Date().toISOString() });
  process.stdout.write(`\nwrote ${resultsDir}/parse-offsets.{csv,json} and parse-throughput.{csv,json}\n`);
}

if (!args.includes('--no-lab')) {
  const { runLab } = await import('./lab/run.mjs');
  await runLab(args);
}
