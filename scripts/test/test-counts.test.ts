// How `npm test` reads a suite's output into its closing `N passed, N failed, N skipped` and `SKIP` lines.
import { describe, expect, it } from 'vitest';
import { speedPageCounts } from '../test.mjs';

describe('speedPageCounts', () => {
  // Not root, `npm test` printed "SKIP speed-page smoke (demo site, 2 variants): 1 test(s) skipped without a reason
  // in the report": the smoke had said why, and the README promises every skip with its reason.
  it('keeps the reason the Speed Page smoke gave for skipping', () => {
    const output = 'SKIP speed-page smoke: network namespaces need root (run as root or in CI)\n';
    expect(speedPageCounts(0, output)).toEqual({
      passed: 0,
      failed: 0,
      skipped: 1,
      skips: ['network namespaces need root (run as root or in CI)'],
    });
  });

  it('reads the closing line of a run, and a crash before it as a failure', () => {
    expect(speedPageCounts(0, 'checks…\n7 passed, 0 failed\n')).toEqual({ passed: 7, failed: 0 });
    expect(speedPageCounts(1, 'Error: boom\n')).toEqual({ passed: 0, failed: 1 });
  });
});
