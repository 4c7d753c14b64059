// `wrangler deploy --dry-run` for one environment, then checks the bundle against the Workers size limit.
// The dry run needs no Cloudflare account: it only bundles.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { mustExec } from './lib/exec.mjs';
import { exitWithError } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';

// Free-plan limit after compression; paid plans allow 10 MiB. We hold ourselves to the stricter one.
const limitGzipBytes = 3 * 1024 * 1024;
const environment = process.argv[2];
const outDir = join(repoRoot, 'reports', `bundle-${environment ?? 'all'}`);

try {
  rmSync(outDir, { recursive: true, force: true });
  const args = ['deploy', '--dry-run', '--outdir', outDir];
  if (environment) args.push('--env', environment);
  await mustExec('wrangler', args, { cwd: repoRoot, env: toolEnv(), quiet: true });
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const name of readdirSync(outDir)) {
    const full = join(outDir, name);
    if (!statSync(full).isFile() || name.endsWith('.map')) continue;
    rawBytes += statSync(full).size;
    gzipBytes += gzipSync(readFileSync(full), { level: 9 }).length;
  }
  const kib = (/** @type {number} */ bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  process.stdout.write(
    `bundle ${environment ?? '(all-in-one)'}: ${kib(rawBytes)} raw, ${kib(gzipBytes)} gzip (limit ${kib(limitGzipBytes)} gzip)\n`,
  );
  if (gzipBytes > limitGzipBytes) throw new Error('bundle is over the Workers size limit');
} catch (error) {
  exitWithError(error);
}
