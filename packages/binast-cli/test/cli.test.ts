import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { readPrebuilt, sha256OfBytes } from '@speedkit/binast/prebuilt';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli.mjs';
import { decodeToJavaScript, parseJavaScript } from '../src/codec.mjs';
import { libraries } from '../src/corpus.mjs';
import { prebuildLine } from '../src/prebuild.mjs';

function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = run(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

/** `cli` for the asynchronous `prebuild`. */
async function cliAsync(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await run(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'binast-cli-'));
const backbone = libraries.find((library) => library.name === 'backbone')?.path ?? '';

describe('npx binast', () => {
  it('encodes a library, reports its stats and decodes it back to runnable source', () => {
    const encoded = join(dir, 'backbone.binjs');
    expect(cli('encode', backbone, '-o', encoded, '--layout', 'multipart', '--lazy', '1').code).toBe(0);
    expect(readFileSync(encoded).subarray(0, 5).toString()).toBe('BINJS');
    const stats = JSON.parse(cli('stats', encoded).out);
    expect(stats).toMatchObject({ format: 1, layout: 'multipart' });
    expect(stats.lazyFunctions).toBeGreaterThan(0);
    const decoded = cli('decode', encoded);
    expect(decoded.code).toBe(0);
    const exports: Record<string, unknown> = {};
    // The UMD wrapper takes the CommonJS path: a real evaluation of the regenerated library.
    new Function('exports', 'require', 'module', decoded.out)(exports, createRequire(import.meta.url), { exports });
    expect(typeof exports.Model).toBe('function');
  });

  it('compares both layouts before and after compression for a JavaScript file', () => {
    const { code, out } = cli('stats', backbone);
    expect(code).toBe(0);
    const table = JSON.parse(out);
    expect(Object.keys(table)).toEqual(['source', 'multipart', 'optimised', 'context']);
    expect(table.optimised.brotli).toBeGreaterThan(0);
  });

  it('fails with exit code 1 and a message on a file that is not BinaryAST', () => {
    const bogus = join(dir, 'bogus.binjs');
    writeFileSync(bogus, 'var a = 1;');
    const { code, err } = cli('decode', bogus);
    expect(code).toBe(1);
    expect(err).toContain('missing BINJS magic');
  });

  it('says a damaged .binjs is neither BinaryAST nor JavaScript when asked for its stats', () => {
    const damaged = join(dir, 'damaged.binjs');
    writeFileSync(damaged, Buffer.from([0xb1, 0x4e, 0x4a, 0x53, 0x00, 0xff, 0x10, 0x80]));
    const { code, err } = cli('stats', damaged);
    expect(code).toBe(1);
    // Until 2026-11-28 it said only the parser's "Unexpected character", as if the file were broken JavaScript.
    expect(err).toMatch(
      /^binast stats .*damaged\.binjs: neither a BinaryAST file \(no BINJS magic\) nor JavaScript \(/,
    );
  });

  it('fails with exit code 1 on JavaScript the parser rejects', () => {
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, 'function (');
    expect(cli('encode', broken, '-o', join(dir, 'x.binjs')).code).toBe(1);
  });

  it('encodes a module by its extension or its syntax, as the Worker does', () => {
    const mjs = join(dir, 'entry.mjs');
    writeFileSync(mjs, 'import { a } from "./a.mjs"; export const b = a;');
    expect(cli('encode', mjs, '-o', join(dir, 'entry.binjs')).code).toBe(0);
    const esm = join(dir, 'esm.js');
    writeFileSync(esm, 'export default 1;');
    expect(cli('encode', esm, '-o', join(dir, 'esm.binjs')).code).toBe(0);
    expect(cli('decode', join(dir, 'esm.binjs')).out).toContain('export default 1');
  });

  it('encodes a very long string first in a file, and refuses text that is not UTF-8 without writing anything', () => {
    // Until 2026-11-28 the decoder's text budget counted only the bytes read before the string's length, so this
    // file (and any bundle opening with a 100 KB+ data URL) encoded into something no decoder accepted.
    const early = join(dir, 'early.js');
    writeFileSync(early, `x="${'a'.repeat(320_000)}";`);
    expect(cli('encode', early, '-o', join(dir, 'early.binjs')).code).toBe(0);
    const decoded = cli('decode', join(dir, 'early.binjs')).out;
    expect(firstDifference(parseJavaScript(readFileSync(early, 'utf8')), parseJavaScript(decoded))).toBeNull();
    const latin1 = join(dir, 'latin1.js');
    writeFileSync(latin1, Buffer.from('var s = "caf\xe9";', 'latin1'));
    const refused = cli('encode', latin1, '-o', join(dir, 'latin1.binjs'));
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('binast encode');
    expect(existsSync(join(dir, 'latin1.binjs'))).toBe(false);
  });

  it('prints usage with exit code 2 for a missing argument or bad option', () => {
    const noOutput = cli('encode', backbone);
    expect(noOutput.code).toBe(2);
    expect(noOutput.err.match(/-o <file>/g)?.length).toBeGreaterThan(0);
    expect(cli('encode').code).toBe(2);
    expect(cli('encode', backbone, '--layout', 'zip').code).toBe(2);
    expect(cli('frobnicate', backbone).err).toContain('Usage');
    expect(cli('encode', backbone, '--lazy', '5').code).toBe(2);
  });

  it('prints the usage asked for with --help on stdout, exit code 0, naming -o as required for encode', () => {
    for (const flag of ['--help', '-h']) {
      const help = cli(flag);
      expect(help.code).toBe(0);
      expect(help.out).toContain('binast encode <input.js> -o <output.binjs>');
      expect(help.err).toBe('');
    }
  });
});

describe('npx binast prebuild', () => {
  it('writes a verified prebuilt file beside every script of a build, bound to its bytes', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-'));
    mkdirSync(join(site, 'assets', 'chunks'), { recursive: true });
    copyFileSync(backbone, join(site, 'assets', 'backbone.js'));
    writeFileSync(
      join(site, 'assets', 'chunks', 'entry.mjs'),
      'import { a } from "/assets/a.mjs"; export const b = a;',
    );
    writeFileSync(join(site, 'assets', 'esm.js'), 'import "preact"; export default function f() { return 1; }');
    // The loader runs decoded modules from the page's URL: a chunk importing its neighbour must stay JavaScript.
    writeFileSync(join(site, 'assets', 'vite-chunk.js'), 'import { v } from "./vendor.js"; export default v;');
    writeFileSync(join(site, 'broken.js'), 'function (');
    // Left by an earlier build whose broken.js still parsed: must not stay beside the new bytes.
    writeFileSync(join(site, 'broken.js.binast'), 'stale');
    writeFileSync(join(site, 'style.css'), 'body{}');

    const { code, out } = await cliAsync('prebuild', site);
    expect(code).toBe(0);
    expect(out).toContain('3 prebuilt, 2 skipped');
    expect(out).toContain(
      'skipped  assets/vite-chunk.js (50 B): the module imports ./vendor.js relative to the script',
    );
    expect(existsSync(join(site, 'assets', 'vite-chunk.js.binast'))).toBe(false);
    expect(out).toMatch(/skipped {2}broken\.js \(10 B\): Unexpected token/);
    expect(existsSync(join(site, 'broken.js.binast'))).toBe(false);
    expect(existsSync(join(site, 'style.css.binast'))).toBe(false);

    for (const [script, sourceType] of [
      ['assets/backbone.js', 'script'],
      ['assets/chunks/entry.mjs', 'module'],
      ['assets/esm.js', 'module'],
    ] as const) {
      const source = readFileSync(join(site, script));
      const read = await readPrebuilt(new Uint8Array(readFileSync(join(site, `${script}.binast`))));
      if (!read.ok) throw new Error(`${script}: ${read.reason}`);
      expect(read.header).toMatchObject({ layout: 'context', lazyLevel: 0, sourceBytes: source.byteLength });
      expect(read.header.source).toBe(await sha256OfBytes(new Uint8Array(source)));
      const regenerated = parseJavaScript(decodeToJavaScript(read.encoding), sourceType);
      expect(firstDifference(parseJavaScript(source.toString('utf8'), sourceType), regenerated), script).toBeNull();
    }
  });

  it('decodes and reports on the prebuilt files it writes, and refuses a damaged one', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-read-'));
    copyFileSync(backbone, join(site, 'backbone.js'));
    expect((await cliAsync('prebuild', site)).code).toBe(0);
    const prebuilt = join(site, 'backbone.js.binast');
    // Until 2026-11-28 `decode` said "missing BINJS magic" and `stats` parsed the file as JavaScript.
    const decoded = await cliAsync('decode', prebuilt);
    expect(decoded.code).toBe(0);
    const source = readFileSync(backbone, 'utf8');
    expect(firstDifference(parseJavaScript(source), parseJavaScript(decoded.out))).toBeNull();
    const stats = await cliAsync('stats', prebuilt);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out)).toMatchObject({
      prebuilt: { layout: 'context', lazyLevel: 0, sourceBytes: Buffer.byteLength(source) },
      format: 7,
      layout: 'context',
    });
    const damaged = readFileSync(prebuilt);
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0x01, damaged.length - 1);
    writeFileSync(prebuilt, damaged);
    const refused = await cliAsync('decode', prebuilt);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('unusable prebuilt file: encoding does not match its SHA-256');
    // A file an older version wrote (format 6) names the remedy instead of reading as damage.
    // The format is checked before the SHA-256, so the damaged file serves.
    const older = Buffer.from(damaged);
    older.write('6', damaged.indexOf('"format":7') + '"format":'.length, 'latin1');
    writeFileSync(prebuilt, older);
    expect((await cliAsync('decode', prebuilt)).err).toContain(
      'unusable prebuilt file: written for context format 6, this decoder reads 7 (run binast prebuild again)',
    );
  });

  it('reports a file it cannot write as FAILED with exit code 1, goes on with the rest, and never writes through a link', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-write-'));
    const outside = mkdtempSync(join(tmpdir(), 'binast-prebuild-outside-'));
    for (const name of ['a.js', 'b.js', 'c.js']) writeFileSync(join(site, name), `var ${name[0]} = 1;`);
    // Something in the way of a.js.binast: until 2026-11-28 the run stopped there ("rm returned EISDIR"), b and c
    // never written; a write error with nothing to remove was a "skipped" row and exit code 0.
    mkdirSync(join(site, 'a.js.binast'));
    // A link left in the build: the old write went through it and replaced someone else's file.
    writeFileSync(join(outside, 'notes.txt'), 'not yours');
    symlinkSync(join(outside, 'notes.txt'), join(site, 'c.js.binast'));

    const { code, out, err } = await cliAsync('prebuild', site);
    expect(code).toBe(1);
    expect(out).toMatch(/FAILED {3}a\.js \(10 B\): writing a\.js\.binast: .*EISDIR/);
    expect(out).toContain('2 prebuilt, 0 skipped (served as JavaScript or encoded by the Worker), 1 FAILED');
    expect(err).toContain('1 of 3 scripts FAILED');
    expect(lstatSync(join(site, 'a.js.binast')).isDirectory()).toBe(true);
    expect(readFileSync(join(outside, 'notes.txt'), 'utf8')).toBe('not yours');
    for (const name of ['b.js', 'c.js']) {
      expect(lstatSync(join(site, `${name}.binast`)).isFile(), name).toBe(true);
      expect((await readPrebuilt(new Uint8Array(readFileSync(join(site, `${name}.binast`))))).ok, name).toBe(true);
    }
    expect(readdirSync(site).sort()).toEqual(['a.js', 'a.js.binast', 'b.js', 'b.js.binast', 'c.js', 'c.js.binast']);
  });

  it('prints the line of each script as soon as it is done, before the next is encoded', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-progress-'));
    for (const name of ['a.js', 'b.js']) writeFileSync(join(site, name), `var ${name[0]} = 1;`);
    // What was on disk when each chunk of output arrived: until 2026-11-28 the whole table came at the end (a
    // 16 MB script took 97 s in silence, and a run that died printed nothing).
    const chunks: { text: string; bWritten: boolean }[] = [];
    const code = await run(['prebuild', site], {
      out: (text) => chunks.push({ text, bWritten: existsSync(join(site, 'b.js.binast')) }),
      err: () => {},
    });
    expect(code).toBe(0);
    expect(chunks.map((chunk) => chunk.text.split(' (')[0])).toEqual([
      '  wrote    a.js.binast',
      '  wrote    b.js.binast',
      '2 prebuilt, 0 skipped',
    ]);
    expect(chunks[0]?.bWritten).toBe(false);
  });

  it('encodes a linked script beside its link, and says which links it left', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-links-'));
    mkdirSync(join(site, 'vendor'));
    copyFileSync(backbone, join(site, 'vendor', 'backbone.js'));
    // A deploy folder assembled with links (`cp -s`, a store of built packages): the server sends the file linked
    // to, and until 2026-11-28 such scripts were left out without a word.
    symlinkSync(join('vendor', 'backbone.js'), join(site, 'backbone.js'));
    symlinkSync('vendor', join(site, 'lib'));
    symlinkSync('gone.js', join(site, 'dangling.js'));
    // Loops of links: stat says ELOOP, which stopped the whole run ("binast prebuild: ELOOP: too many symbolic links").
    symlinkSync('loop.js', join(site, 'loop.js'));
    symlinkSync('there', join(site, 'here'));
    symlinkSync('here', join(site, 'there'));

    const { code, out } = await cliAsync('prebuild', site);
    expect(code).toBe(0);
    expect(out).toContain('  skipped  lib/: a link to a folder, not followed');
    expect(out).toContain('  skipped  dangling.js: a symbolic link to nothing (or to itself)');
    expect(out).toContain('  skipped  loop.js: a symbolic link to nothing (or to itself)');
    expect(out).toContain('2 prebuilt, 3 skipped');
    expect(lstatSync(join(site, 'backbone.js.binast')).isFile()).toBe(true);
    expect(existsSync(join(site, 'vendor', 'backbone.js.binast'))).toBe(true);
    const read = await readPrebuilt(new Uint8Array(readFileSync(join(site, 'backbone.js.binast'))));
    if (!read.ok) throw new Error(read.reason);
    expect(read.header.source).toBe(await sha256OfBytes(new Uint8Array(readFileSync(backbone))));
  });

  it('finishes every script when the reader of its output stops early (| head -1)', () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-pipe-'));
    writeFileSync(join(site, 'a.js'), 'var a = 1;');
    // Encoding backbone takes long enough for head to have gone when its line is written.
    copyFileSync(backbone, join(site, 'b.js'));
    writeFileSync(join(site, 'c.js'), 'var c = 1;');
    const bin = fileURLToPath(new URL('../bin/binast.mjs', import.meta.url));
    const shell = spawnSync(
      'bash',
      ['-c', `"${process.execPath}" "${bin}" prebuild "${site}" | head -1; exit \${PIPESTATUS[0]}`],
      {
        encoding: 'utf8',
      },
    );
    // Until 2026-11-28 the EPIPE killed the run at b's line: exit 1 with a stack trace, c.js never prebuilt.
    expect(shell.stdout).toBe('  wrote    a.js.binast (10 B → 29 B, 2.900×)\n');
    expect(shell.stderr).toBe('');
    expect(shell.status).toBe(0);
    for (const name of ['a.js', 'b.js', 'c.js']) expect(existsSync(join(site, `${name}.binast`)), name).toBe(true);
  });

  it('prebuilds a bundle that opens with a Wasm module as a base64 data URL, as Vite writes an ?inline import', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-inline-'));
    // The encoder's module, 500 KB: 676 KB of base64 (the decoder's own 124 KB passed before as well).
    const wasm = readFileSync(fileURLToPath(import.meta.resolve('@speedkit/binast/wasm/binast_bg.wasm')));
    const source = `var e=\`data:application/wasm;base64,${wasm.toString('base64')}\`;\n${readFileSync(backbone, 'utf8')}`;
    writeFileSync(join(site, 'index-BnW7u1.js'), source);
    const { code, out } = await cliAsync('prebuild', site);
    // Until 2026-11-28: "skipped … corrupt BinaryAST: a string of 676585 bytes exceeds the file's declared total".
    expect(out).toContain('  wrote    index-BnW7u1.js.binast');
    expect(code).toBe(0);
    const read = await readPrebuilt(new Uint8Array(readFileSync(join(site, 'index-BnW7u1.js.binast'))));
    if (!read.ok) throw new Error(read.reason);
    const regenerated = parseJavaScript(decodeToJavaScript(read.encoding));
    expect(firstDifference(parseJavaScript(source), regenerated)).toBeNull();
  });

  it('says when the Worker would ignore a prebuilt file on its default limits', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-limits-'));
    // 1.2 MB of plain statements: over BINAST_MAX_SOURCE_BYTES, which `verify` (the default) checks up to.
    const statements = Array.from({ length: 90_000 }, (_, i) => `v${i}=${i};`).join('\n');
    writeFileSync(join(site, 'big.js'), statements);
    writeFileSync(join(site, 'small.js'), 'var a = 1;');
    const { code, out } = await cliAsync('prebuild', site);
    expect(code).toBe(0);
    // Until 2026-11-28 nothing said so: the Worker logged "over BINAST_MAX_SOURCE_BYTES=1048576 to verify".
    expect(out).toMatch(
      /wrote {4}big\.js\.binast \(\d+ B → \d+ B, [\d.]+×; over the Worker's default BINAST_MAX_SOURCE_BYTES \(1 MiB\): used with BINAST_PREBUILT=trust or a higher limit\)/,
    );
    expect(out).toContain('  wrote    small.js.binast (10 B → 29 B, 2.900×)\n');
    const huge = prebuildLine({ script: 'bundle.js', sourceBytes: 17 * 1024 * 1024, encodedBytes: 1_000_000 });
    expect(huge).toContain("over the Worker's default BINAST_MAX_PREBUILT_BYTES (16 MiB): ignored unless it is raised");
  });

  it('says why a script was skipped in words that name it as the table does', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-reasons-'));
    mkdirSync(join(site, 'legacy'));
    writeFileSync(join(site, 'legacy', 'latin1.js'), Buffer.from('var s = "caf\xe9";', 'latin1'));
    writeFileSync(join(site, 'legacy', 'comment.js'), 'a <!--b\n');
    const { out } = await cliAsync('prebuild', site);
    // Until 2026-11-28: "The encoded data was not valid for encoding utf-8", and the absolute path of the file.
    expect(out).toContain('  skipped  legacy/latin1.js (15 B): not UTF-8 (BinaryAST reads scripts as UTF-8;');
    expect(out).toContain('  skipped  legacy/comment.js (8 B): legacy/comment.js has an HTML-like comment <!--');
    expect(out).not.toContain(site);
  });

  it('refuses options that do not apply to it with exit code 2, writing nothing', async () => {
    const site = mkdtempSync(join(tmpdir(), 'binast-prebuild-options-'));
    writeFileSync(join(site, 'a.js'), 'var a = 1;');
    for (const extra of [['-o', join(site, 'out')], ['--module']]) {
      const { code, err } = await cliAsync('prebuild', site, ...extra);
      expect(code, extra.join(' ')).toBe(2);
      expect(err).toContain('-o and --module do not apply');
    }
    expect(readdirSync(site)).toEqual(['a.js']);
  });

  it('fails with exit code 1 on a folder that is not there', async () => {
    const { code, err } = await cliAsync('prebuild', join(dir, 'no-such-site'));
    expect(code).toBe(1);
    expect(err).toContain('is not a directory');
  });
});
