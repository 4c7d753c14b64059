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

/**
 * One Wasm module: cargo with `cargoArgs`, wasm-bindgen into `dir`, wasm-opt at `optimise` (-Os / -Oz).
 * @param {{ dir: string, cargoArgs: string[], optimise: string }} target
 */
async function buildModule({ dir, cargoArgs, optimise }) {
  const outName = 'binast';
  await mustExec(
    'cargo',
    ['build', '--lib', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'binast', ...cargoArgs],
    { cwd: repoRoot, env, quiet: true },
  );
  mkdirSync(dir, { recursive: true });
  await mustExec(
    'wasm-bindgen',
    [built, '--out-dir', dir, '--out-name', outName, '--target', 'web', '--experimental-reset-state-function'],
    { cwd: repoRoot, env, quiet: true },
  );
  const wasmFile = join(dir, `${outName}_bg.wasm`);
  // wasm-opt comes from the npm `binaryen` package on PATH (scripts/lib/tools.mjs); it reads the module's features.
  await mustExec('wasm-opt', [optimise, wasmFile, '-o', wasmFile], { cwd: repoRoot, env, quiet: true });
}

rmSync(outDir, { recursive: true, force: true });
// Everything (Worker, CLI, Node): encoder + decoder.
await buildModule({ dir: outDir, cargoArgs: [], optimise: '-Os' });
// The browser's decoder (what the loader downloads): no encoder, no serde, its own bump allocator
// (src/bump_alloc.rs); the same file names and `decodeToJavaScript` contract as the full build. Optimised for size
// with -Os, not -Oz: -Oz stops inlining the reader's small per-value functions and decoded about 40 % slower for
// 2 KB less gzip (measured with `npm run bench:binast`, issue #17).
await buildModule({
  dir: join(outDir, 'decode'),
  cargoArgs: ['--no-default-features', '--config', 'profile.release.opt-level="s"'],
  optimise: '-Os',
});
writeFileSync(join(outDir, '.gitignore'), '*\n');
