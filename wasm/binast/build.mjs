// Builds the crate for the Web: cargo (wasm32) -> wasm-bindgen (--target web) -> wasm-opt, into wasm/binast/pkg.
// Done by hand rather than by `wasm-pack build` because the glue needs `--experimental-reset-state-function`:
// after any Wasm trap the callers (workers/src/binast/codec.ts) throw the instance away and start a fresh one,
// since a trap leaves the old instance's stack pointer and heap in whatever state the trap found them.
// The decode-only build has no wasm-bindgen glue: its two imports and one export (src/stream_api.rs) are driven by
// js/decode.js, copied beside it, which gives every decode a fresh instance and can suspend it while bytes arrive.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mustExec } from '../../scripts/lib/exec.mjs';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';

const env = toolEnv();
const crateDir = join(repoRoot, 'wasm', 'binast');
const outDir = join(crateDir, 'pkg');
const built = join(repoRoot, 'target', 'wasm32-unknown-unknown', 'release', 'binast.wasm');

/**
 * One Wasm module: cargo with `cargoArgs`, wasm-bindgen into `dir` (or, without `bindgen`, the module as cargo made it
 * with js/decode.js as its JavaScript), wasm-opt at `optimise` (-Os / -O3).
 * @param {{ dir: string, cargoArgs: string[], optimise: string, bindgen: boolean }} target
 */
async function buildModule({ dir, cargoArgs, optimise, bindgen }) {
  const outName = 'binast';
  await mustExec(
    'cargo',
    ['build', '--lib', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'binast', ...cargoArgs],
    { cwd: repoRoot, env, quiet: true },
  );
  mkdirSync(dir, { recursive: true });
  const wasmFile = join(dir, `${outName}_bg.wasm`);
  if (bindgen) {
    await mustExec(
      'wasm-bindgen',
      [built, '--out-dir', dir, '--out-name', outName, '--target', 'web', '--experimental-reset-state-function'],
      { cwd: repoRoot, env, quiet: true },
    );
  } else {
    copyFileSync(built, wasmFile);
    copyFileSync(join(crateDir, 'js', 'decode.js'), join(dir, `${outName}.js`));
    copyFileSync(join(crateDir, 'js', 'decode.d.ts'), join(dir, `${outName}.d.ts`));
  }
  // wasm-opt comes from the npm `binaryen` package on PATH (scripts/lib/tools.mjs); it reads the module's features.
  await mustExec('wasm-opt', [optimise, wasmFile, '-o', wasmFile], { cwd: repoRoot, env, quiet: true });
}

rmSync(outDir, { recursive: true, force: true });
// Everything (Worker, CLI, Node): encoder + decoder.
await buildModule({ dir: outDir, cargoArgs: [], optimise: '-Os', bindgen: true });
// The browser's decoder (what the loader downloads): no encoder, no serde, no wasm-bindgen, its own bump allocator
// (src/bump_alloc.rs); the same `decodeToJavaScript` contract as the full build, plus `decodeStream`. Optimised for
// speed (opt-level 3, wasm-opt -O3), which measured both faster and smaller after gzip than for size: 41.9 KB vs
// 43.0 KB (gzip -9) and 18 % faster in Chromium than opt-level "s" + -Os (2026-11-25, issue #17; the module is 14 % larger
// before gzip). -Oz had stopped inlining the reader's per-value functions: about 40 % slower for 2 KB less. Without
// core::fmt on the decode path (src/message.rs) it is 33,601 B gzip -9, 34,563 B with js/decode.js minified.
await buildModule({
  dir: join(outDir, 'decode'),
  cargoArgs: ['--no-default-features', '--config', 'profile.release.opt-level=3'],
  optimise: '-O3',
  bindgen: false,
});
writeFileSync(join(outDir, '.gitignore'), '*\n');
