import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferedCopyVerdict } from '../../../packages/speedtest/src/stats/upload-spans';
import { recordedUploads } from '../recorded-uploads.mjs';

// The engine stops trusting the server's read times once uploads look read from a proxy's buffered copy
// (bufferedCopyVerdict). On a real link that would throw away what they are for (stalls, idle round trips), so the
// check must never fire on the uploads the accuracy bench recorded across shaped links, queues and loss (every
// `--samples` run kept in bench/results/accuracy).
const resultsDir = new URL('../../results/accuracy/', import.meta.url).pathname;

function recordedRuns() {
  return readdirSync(resultsDir)
    .filter((dir) => dir.endsWith('-samples'))
    .flatMap((dir) =>
      readdirSync(join(resultsDir, dir))
        .filter((file) => file.endsWith('.json'))
        .map((file) => ({
          name: `${dir}/${file}`,
          raw: JSON.parse(readFileSync(join(resultsDir, dir, file), 'utf8')),
        })),
    )
    .filter(({ raw }) => Array.isArray(raw?.diagnostics?.uploads));
}

describe('bufferedCopyVerdict on every recorded upload of a real shaped link', () => {
  it('finds no buffered copy, among many uploads large and long enough to be judged', () => {
    let judged = 0;
    const flagged: string[] = [];
    const runs = recordedRuns();
    for (const { name, raw } of runs) {
      const { idleRttMs, uploads } = recordedUploads(raw);
      for (const upload of uploads) {
        const observation = {
          requestStartMs: upload.timing.requestStart,
          responseStartMs: upload.timing.responseStart,
          idleRttMs,
          bytes: upload.receipt.receivedBytes,
          serverEndMs: upload.receipt.receiveDurationMs,
        };
        const verdict = bufferedCopyVerdict(observation);
        if (verdict !== null) judged += 1;
        if (verdict === 'copy') flagged.push(`${name} ${upload.url}`);
      }
    }
    expect(runs.length).toBeGreaterThan(100);
    expect(judged).toBeGreaterThan(1000);
    expect(flagged).toEqual([]);
  });
});
