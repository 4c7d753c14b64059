#!/usr/bin/env node
// npx binast encode|decode|stats|prebuild — see packages/binast-cli/README.md.
import { run } from '../src/cli.mjs';

// A reader that stops early (`binast prebuild dist | head`) must not stop the work: `prebuild` prints as it goes,
// and the unhandled EPIPE killed the run half-way, leaving the later scripts without their prebuilt files. Once
// stdout is gone its output is dropped; the files, stderr and the exit code are unchanged.
let stdoutGone = false;
process.stdout.on('error', (error) => {
  const { code } = /** @type {NodeJS.ErrnoException} */ (error);
  if (code !== 'EPIPE' && code !== 'ERR_STREAM_DESTROYED') throw error;
  stdoutGone = true;
});

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => {
    if (!stdoutGone) process.stdout.write(text);
  },
  err: (text) => process.stderr.write(text),
});
