// A quick size-only pass of the context layout over both corpora (`libraries` and `unseenLibraries`), through the
// native encoder: no Wasm build, no Chromium, seconds instead of `npm run bench:binast`'s minutes. For iterating on
// the format's models; the numbers the README quotes still come from the full bench, which encodes through Wasm
// (the same crate, so the same bytes).
//   node bench/binast/sizes.mjs [dir]            (SIZES_EXTRA=<folder of minified .js>: a third corpus)
// Builds `examples/context_sizes` (cargo --release; or set CONTEXT_SIZES_BIN to another build's binary, e.g. main's,
// to compare the two on the same trees), writes each library's ESTree JSON to `dir` (default: a
// temporary folder, removed afterwards), encodes it there (context_sizes also checks the decoding regenerates what
// the optimised layout does, and leaves the encoding beside the JSON as `<name>.json.ctx`, which
// `examples/native_decode` reads), and prints bytes and ratios to brotli 11 of the minified source per corpus.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { libraries, unseenLibraries } from '@speedkit/binast-cli/corpus';
import { parse } from 'acorn';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const keep = process.argv[2];
const dir = keep ?? mkdtempSync(join(tmpdir(), 'binast-sizes-'));
mkdirSync(dir, { recursive: true });

const contextSizes = process.env.CONTEXT_SIZES_BIN ?? join(repoRoot, 'target/release/examples/context_sizes');
if (!process.env.CONTEXT_SIZES_BIN) {
  execFileSync('cargo', ['build', '--release', '--quiet', '--example', 'context_sizes', '-p', 'binast'], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
}

/** @param {Uint8Array} bytes */
const brotliBytes = (bytes) =>
  brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;

/** @param {unknown} ast JSON text of an ESTree tree; BigInt values become null (the encoder reads `bigint`). */
const stringify = (ast) => JSON.stringify(ast, (_key, value) => (typeof value === 'bigint' ? null : value));

/** @type {{ corpus: string, files: { name: string, path: string, sourceType: string }[] }[]} */
const corpora = [
  { corpus: 'bench', files: libraries.map((library) => ({ ...library, sourceType: 'script' })) },
  { corpus: 'unseen', files: unseenLibraries },
];
// SIZES_EXTRA=<dir>: a third corpus, every `.js` file in that folder (minified scripts; `.mjs` are read as modules),
// for checking a model change on libraries neither corpus has.
const extraDir = process.env.SIZES_EXTRA;
if (extraDir) {
  const files = readdirSync(extraDir)
    .filter((name) => /\.m?js$/.test(name))
    .sort()
    .map((name) => ({
      name: name.replace(/\.m?js$/, ''),
      path: join(extraDir, name),
      sourceType: name.endsWith('.mjs') ? 'module' : 'script',
    }));
  corpora.push({ corpus: 'extra', files });
}
for (const { corpus, files } of corpora) {
  const rows = files.map((library) => {
    const source = readFileSync(library.path);
    const ast = parse(source.toString('utf8'), {
      ecmaVersion: 'latest',
      sourceType: /** @type {'script' | 'module'} */ (library.sourceType),
      allowHashBang: true,
    });
    const jsonPath = join(dir, `${library.name}.json`);
    writeFileSync(jsonPath, stringify(ast));
    // One line: path, optimised bytes, context bytes, `same true|false`, timings.
    const line = execFileSync(contextSizes, [jsonPath], { encoding: 'utf8' });
    const contextBytes = Number(/context (\d+)/.exec(line)?.[1]);
    const same = /same true/.test(line);
    const brotli = brotliBytes(source);
    return { library: library.name, brotli, contextBytes, ratio: contextBytes / brotli, same };
  });
  const ratios = rows.map((row) => row.ratio).sort((a, b) => a - b);
  const middle = Math.floor(ratios.length / 2);
  const median = ratios.length % 2 ? ratios[middle] : ((ratios[middle - 1] ?? 0) + (ratios[middle] ?? 0)) / 2;
  for (const row of rows) {
    process.stdout.write(
      `${corpus}\t${row.library}\tbrotli ${row.brotli} B\tcontext ${row.contextBytes} B\t${row.ratio.toFixed(3)}×\tround trip ${row.same ? 'same' : 'DIFFERENT'}\n`,
    );
  }
  const total = rows.reduce((sum, row) => sum + row.contextBytes, 0);
  process.stdout.write(
    `${corpus}: median ${(median ?? 0).toFixed(3)}× brotli (aim <= 0.90), largest ${(ratios.at(-1) ?? 0).toFixed(3)}× (aim <= 1.0), context ${total} B in all, round trips same ${rows.filter((row) => row.same).length}/${rows.length}\n`,
  );
}
if (!keep) rmSync(dir, { recursive: true, force: true });
