// Parse throughput and read-ahead per image: how fast the streaming scanner runs, and how many bytes the Worker holds
// back before the client gets its first byte (the cost of computing the offsets).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { demoDir, fixturesDir } from './make-images.mjs';

const originChunkBytes = 16 * 1024; // what a fetch() body typically yields per read
// A rule no file satisfies, so the scanner walks every byte: the worst case for throughput.
const neverGood = { coefficients: 63, maxBitShift: -1 };

/** @param {Uint8Array} bytes @param {number} chunkBytes @returns {ReadableStream<Uint8Array>} */
function chunked(bytes, chunkBytes) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + chunkBytes));
      at += chunkBytes;
    },
  });
}

/** @typedef {import('./load-core.mjs').PriorityCore} PriorityCore */

/**
 * Median MB/s of scanning every file `rounds` times in `chunkBytes` pieces with `rule`.
 * @param {PriorityCore} core @param {Uint8Array[]} files
 * @param {PriorityCore['defaultPriorityConfig']['goodImage']} rule
 * @param {number} chunkBytes @param {number} rounds
 */
function throughput(core, files, rule, chunkBytes, rounds) {
  const rates = [];
  for (let round = 0; round < rounds; round++) {
    let scannedBytes = 0;
    const startNs = process.hrtime.bigint();
    for (const bytes of files) {
      const scanner = new core.AnyImageScanner(rule);
      for (let at = 0; at < bytes.length; at += chunkBytes) {
        const chunk = bytes.subarray(at, at + chunkBytes);
        scannedBytes += chunk.length;
        if (scanner.push(chunk).kind !== 'more') break;
      }
      scanner.finish();
    }
    const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
    rates.push(scannedBytes / 1e6 / seconds);
  }
  return rates.sort((a, b) => a - b)[Math.floor(rates.length / 2)];
}

/** @param {PriorityCore} core */
export async function parseBench(core) {
  const config = core.defaultPriorityConfig;
  const rows = [];
  for (const name of readdirSync(demoDir)
    .filter((n) => n.endsWith('.jpg'))
    .sort()) {
    const bytes = readFileSync(join(demoDir, name));
    const ahead = await core.readAhead(
      chunked(bytes, originChunkBytes),
      new core.AnyImageScanner(config.goodImage),
      config.maxBufferBytes,
      config.maxWaitMs,
    );
    await ahead.reader.cancel();
    // Every demo image is a good JPEG; one the scanner cannot lay out is a broken fixture, said as such.
    if (ahead.result.kind !== 'done')
      throw new Error(`${name}: the scanner answered ${ahead.result.kind}, not a layout`);
    const layout = ahead.result.layout;
    const pct = (/** @type {number | undefined} */ n) => (n === undefined ? '' : ((100 * n) / bytes.length).toFixed(1));
    rows.push({
      image: name,
      bytes: bytes.length,
      headerEndBytes: layout.headerEndBytes,
      previewEndBytes: layout.previewEndBytes,
      previewPct: pct(layout.previewEndBytes),
      goodEndBytes: layout.goodEndBytes,
      goodPct: pct(layout.goodEndBytes),
      bufferedBytes: ahead.bufferedBytes,
      bufferedPct: pct(ahead.bufferedBytes),
      cfPriorityChange: core.priorityHeaders(layout, config)['cf-priority-change'],
    });
  }
  const jpegs = readdirSync(fixturesDir)
    .filter((n) => n.endsWith('.jpg'))
    .map((n) => readFileSync(join(fixturesDir, n)));
  const totalBytes = jpegs.reduce((sum, b) => sum + b.length, 0);
  const rates = [];
  for (const chunkBytes of [4096, 65536]) {
    rates.push({
      mode: 'to the answer (default rule)',
      chunkBytes,
      files: jpegs.length,
      totalBytes,
      mbPerSecond: throughput(core, jpegs, config.goodImage, chunkBytes, 7),
    });
    rates.push({
      mode: 'whole file (no early stop)',
      chunkBytes,
      files: jpegs.length,
      totalBytes,
      mbPerSecond: throughput(core, jpegs, neverGood, chunkBytes, 7),
    });
  }
  return { rows, rates };
}
