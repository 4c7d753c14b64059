// `node bench/accuracy/phase-bytes.mjs DIR-or-FILE…`
// Ad hoc: where the bytes of our engine's runs went, from results saved with `--samples` since they carry the wire
// (the router's byte counters both ways at 200 ms, `wire` in the file). Per run and phase (`phaseSpans` in
// wire-series.mjs: idle pings, download, settled pings, upload, drain and loss), the bytes the router carried towards
// the client and towards the server, in MB, beside what the page counted for each direction (`totalBytes`). The bytes
// goal of issue 15 counts both directions of the whole run, so this says which phase to make cheaper.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { alignedTable } from '../binast/aligned-table.mjs';
import { sampleFiles } from './recorded-runs.mjs';
import { bytesByPhase } from './wire-series.mjs';

const files = sampleFiles(process.argv.slice(2));
if (files.length === 0) {
  console.error('usage: node bench/accuracy/phase-bytes.mjs DIR-or-FILE… (results saved with --samples)');
  process.exit(2);
}

/** @param {number} bytes */
const mb = (bytes) => (Number.isFinite(bytes) ? (bytes / 1e6).toFixed(2) : 'n/a');
/** @type {string[][]} */
const rows = [];
let withoutWire = 0;
for (const file of files) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  if (!raw.wire) {
    withoutWire++;
    continue;
  }
  const phases = bytesByPhase(raw, raw.wire);
  let total = 0;
  for (const phase of phases) {
    total += phase.downBytes + phase.upBytes;
    rows.push([
      basename(file, '.json'),
      phase.phase,
      ((phase.toMs - phase.fromMs) / 1000).toFixed(1),
      mb(phase.downBytes),
      mb(phase.upBytes),
      mb(phase.downBytes + phase.upBytes),
    ]);
  }
  rows.push([
    basename(file, '.json'),
    `whole run (page counted ${mb(raw.totalBytes?.download)} down, ${mb(raw.totalBytes?.upload)} up)`,
    (raw.durationMs / 1000).toFixed(1),
    '',
    '',
    mb(total),
  ]);
}
console.log(alignedTable([['run', 'phase', 's', 'MB to client', 'MB to server', 'MB both'], ...rows]));
if (withoutWire > 0)
  console.log(`${withoutWire} file(s) without a wire series (saved before the bench kept it): left out`);
