#!/usr/bin/env node
// npx binast encode|decode|stats|prebuild — see packages/binast-cli/README.md.
import { run } from '../src/cli.mjs';

process.exitCode = await run(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
});
