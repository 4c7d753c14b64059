// The command-line interface, as a function of argv so tests call it without spawning a process.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { isPrebuiltFile, readPrebuilt } from '@speedkit/binast/prebuilt';
import { decodeToJavaScript, encodeChecked, encodeJavaScript, stats } from './codec.mjs';
import { prebuild, prebuildLine, prebuildSummary } from './prebuild.mjs';

const usage = `Usage:
  binast encode <input.js> -o <output.binjs> [--layout context|optimised|multipart] [--lazy 0-3] [--module]
  binast decode <input.binjs | script.js.binast> [-o output.js]
  binast stats  <input.binjs | script.js.binast | input.js> [--module]
  binast prebuild <dir> [--layout context|optimised|multipart] [--lazy 0-3]
                 writes <script>.binast beside every .js/.mjs under <dir>, for the BinaryAST Worker to serve
`;

/**
 * @typedef {{ out: (text: string) => void, err: (text: string) => void }} Io
 */

/**
 * Runs one command; returns the exit code (0 ok, 1 failed, 2 usage), through a promise for `prebuild` and for
 * `decode`/`stats` of a prebuilt file (they hash with WebCrypto).
 * @param {string[]} argv
 * @param {Io} io
 * @returns {number | Promise<number>}
 */
export function run(argv, io) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        layout: { type: 'string', default: 'context' },
        lazy: { type: 'string', default: '0' },
        module: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    io.err(`${String(error instanceof Error ? error.message : error)}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, input] = positionals;
  // Asked for, the usage is the output (stdout, so `binast --help | less` shows it); a usage error goes to stderr.
  if (values.help) {
    io.out(usage);
    return 0;
  }
  if (!command || !input || positionals.length > 2) {
    io.err(usage);
    return 2;
  }
  const layout = values.layout;
  const lazyLevel = Number(values.lazy);
  if (layout !== 'optimised' && layout !== 'multipart' && layout !== 'context') {
    io.err(`--layout must be optimised, multipart or context, got ${layout}\n`);
    return 2;
  }
  if (!/^[0-3]$/.test(values.lazy)) {
    io.err(`--lazy must be 0, 1, 2 or 3, got ${values.lazy}\n`);
    return 2;
  }
  if (command === 'prebuild') {
    // Silently ignored, `-o dist-binast/` left the reader looking for files that were written beside the scripts.
    if (values.output !== undefined || values.module) {
      io.err(
        `prebuild writes <script>.binast beside each script and reads modules by extension and syntax: -o and --module do not apply\n${usage}`,
      );
      return 2;
    }
    return runPrebuild(input, { layout, lazyLevel }, io);
  }
  const sourceType = values.module ? 'module' : 'script';
  try {
    switch (command) {
      case 'encode': {
        if (!values.output) {
          io.err(`encode needs -o <file>: BinaryAST is binary\n${usage}`);
          return 2;
        }
        const bytes = encodeChecked(new Uint8Array(readFileSync(input)), input, {
          layout,
          lazyLevel,
          module: values.module,
        });
        writeFileSync(values.output, bytes);
        io.out(`${input}: ${bytes.length} bytes of BinaryAST (${layout})\n`);
        return 0;
      }
      case 'decode':
      case 'stats': {
        const file = readFileSync(input);
        // What `prebuild` wrote is read through its header (checked first), so its files can be looked into too.
        if (isPrebuiltFile(file)) return runOnPrebuilt(command, input, file, values.output, io);
        if (command === 'stats') io.out(`${JSON.stringify(statsOf(file, sourceType), null, 2)}\n`);
        else writeDecoded(decodeToJavaScript(new Uint8Array(file)), values.output, io);
        return 0;
      }
      default:
        io.err(`unknown command ${command}\n${usage}`);
        return 2;
    }
  } catch (error) {
    io.err(`binast ${command} ${input}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * @param {string} source
 * @param {string | undefined} output
 * @param {Io} io
 */
function writeDecoded(source, output, io) {
  if (output) writeFileSync(output, source);
  else io.out(source);
}

/**
 * `decode` or `stats` of a `<script>.binast` from `prebuild`: the encoding inside it once its length and SHA-256
 * match its header (asynchronous: WebCrypto), and for `stats` the header beside the encoding's own figures.
 * @param {'decode' | 'stats'} command
 * @param {string} input
 * @param {Buffer} file
 * @param {string | undefined} output
 * @param {Io} io
 */
async function runOnPrebuilt(command, input, file, output, io) {
  try {
    const read = await readPrebuilt(new Uint8Array(file));
    if (!read.ok) throw new Error(`unusable prebuilt file: ${read.reason}`);
    if (command === 'stats') {
      const { header, encoding } = read;
      io.out(`${JSON.stringify({ prebuilt: header, bytes: encoding.length, ...stats(encoding) }, null, 2)}\n`);
    } else writeDecoded(decodeToJavaScript(read.encoding), output, io);
    return 0;
  } catch (error) {
    io.err(`binast ${command} ${input}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/**
 * @param {string} dir
 * @param {{ layout: import('@speedkit/binast').Layout, lazyLevel: number }} settings
 * @param {Io} io
 */
async function runPrebuild(dir, settings, io) {
  try {
    const rows = await prebuild(dir, settings, (row) => io.out(prebuildLine(row)));
    io.out(prebuildSummary(rows));
    const failed = rows.filter((row) => row.failed !== undefined).length;
    if (failed === 0) return 0;
    io.err(`binast prebuild ${dir}: ${failed} of ${rows.length} scripts FAILED (file system errors in the table)\n`);
    return 1;
  } catch (error) {
    io.err(`binast prebuild ${dir}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

const brotli = (/** @type {Uint8Array} */ bytes) =>
  brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const gzip = (/** @type {Uint8Array} */ bytes) => gzipSync(bytes, { level: 9 }).length;

/**
 * A BinaryAST file's contents, or for JavaScript, what each layout would weigh before and after compression.
 * @param {Buffer} file
 * @param {'script' | 'module'} sourceType
 */
function statsOf(file, sourceType) {
  const bytes = new Uint8Array(file);
  if (file.subarray(0, 5).toString('latin1') === 'BINJS') return { bytes: bytes.length, ...stats(bytes) };
  const source = file.toString('utf8');
  const row = (/** @type {Uint8Array} */ b) => ({ bytes: b.length, gzip: gzip(b), brotli: brotli(b) });
  /** @type {Uint8Array} */
  let multipart;
  try {
    multipart = encodeJavaScript(source, { layout: 'multipart', sourceType });
  } catch (error) {
    // A damaged or foreign .binjs lands here too: a parser's "Unexpected character" alone would not say so.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`neither a BinaryAST file (no BINJS magic) nor JavaScript (${reason})`);
  }
  return {
    source: row(bytes),
    multipart: row(multipart),
    optimised: row(encodeJavaScript(source, { layout: 'optimised', sourceType })),
    context: row(encodeJavaScript(source, { layout: 'context', sourceType })),
  };
}
