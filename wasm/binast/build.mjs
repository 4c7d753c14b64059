// Builds the crate for the Web: cargo (wasm32) -> wasm-bindgen (--target web) -> wasm-opt, into wasm/binast/pkg.
// Done by hand rather than by `wasm-pack build` because the glue needs `--experimental-reset-state-function`:
// after any Wasm trap the callers (workers/src/binast/codec.ts) throw the instance away and start a fresh one,
// since a trap leaves the old instance's stack pointer and heap in whatever state the trap found them.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mustExec } from '../../scripts/lib/exec.mjs';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';

const env = toolEnv();
const crateDir = join(repoRoot, 'wasm', 'binast');
const outDir = join(crateDir, 'pkg');
const built = join(repoRoot, 'target', 'wasm32-unknown-unknown', 'release', 'binast.wasm');

await mustExec('cargo', ['build', '--lib', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'binast'], {
  cwd: repoRoot,
  env,
  quiet: true,
});
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await mustExec(
  'wasm-bindgen',
  [built, '--out-dir', outDir, '--out-name', 'binast', '--target', 'web', '--experimental-reset-state-function'],
  { cwd: repoRoot, env, quiet: true },
);
const wasmFile = join(outDir, 'binast_bg.wasm');
// wasm-opt comes from the npm `binaryen` package on PATH (scripts/lib/tools.mjs); it reads the module's features.
await mustExec('wasm-opt', ['-Os', wasmFile, '-o', wasmFile], { cwd: repoRoot, env, quiet: true });
writeFileSync(join(outDir, '.gitignore'), '*\n');
