// Loads the Worker's pure priority core (TypeScript) into Node by bundling it with esbuild, so the benchmarks and
// the lab measure exactly the code the Worker runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const src = resolve(fileURLToPath(new URL('../../workers/src/priority', import.meta.url)));

export async function loadPriorityCore() {
  const dir = mkdtempSync(join(tmpdir(), 'speedkit-priority-'));
  const outfile = join(dir, 'core.mjs');
  try {
    await build({
      stdin: {
        contents: [
          "export { AnyImageScanner, scanImage } from './scanner';",
          "export { readAhead } from './prefix';",
          "export { priorityHeaders } from './emit';",
          "export { defaultPriorityConfig } from './config';",
        ].join('\n'),
        resolveDir: src,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile,
      logLevel: 'error',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
