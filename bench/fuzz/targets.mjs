// The fuzz targets: each has seeds from the real fixtures, an arbitrary (mutations of those seeds) and a check that
// throws when the parser misbehaves. A parser may reject anything; it may not throw, trap, hang or break its promise.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { loadBinastDecoder, loadBinastEncoder, loadWorkerParsers } from './load-targets.mjs';
import { bytesFrom, textFrom } from './mutate.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/**
 * Files of a generated fixture folder up to `maxBytes` each (small seeds mutate and run faster).
 * @param {string} dir @param {RegExp} test
 */
function filesIn(dir, test, maxBytes = 128 * 1024) {
  const full = join(repoRoot, dir);
  let names;
  try {
    names = readdirSync(full);
  } catch {
    throw new Error(`${dir} is missing: run \`npm run build\` first (the fuzz seeds are the generated fixtures)`);
  }
  return names
    .filter(
      (name) => test.test(name) && statSync(join(full, name)).isFile() && statSync(join(full, name)).size <= maxBytes,
    )
    .map((name) => new Uint8Array(readFileSync(join(full, name))));
}

/** @param {unknown} condition @param {string} message */
const assert = (condition, message) => {
  if (!condition) throw new Error(`property: ${message}`);
};
/** @param {number} value */
const positiveInteger = (value) => Number.isSafeInteger(value) && value > 0;

/** @type {number[][]} */
const magics = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52],
  [...'GIF89a'].map((c) => c.charCodeAt(0)),
  [...'RIFF\0\0\0\0WEBPVP8X'].map((c) => c.charCodeAt(0)),
  [0, 0, 0, 20, ...'ftypavif'].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)),
];

/**
 * @template [Input=unknown]
 * @typedef {object} Target
 * @property {string} name
 * @property {number} seeds
 * @property {import('fast-check').Arbitrary<Input>} arbitrary
 * @property {(input: Input) => void | Promise<void>} run throws on a crash or a broken property
 * @property {(input: Input) => string} describe a short printable form of an input
 * @property {(error: unknown) => Promise<void>} [recover] after a crash (e.g. a fresh Wasm instance after a trap)
 */

/**
 * A target with its input type forgotten: the runner only ever passes `run` and `describe` what `arbitrary` made.
 * @template Input
 * @param {Target<Input>} target
 * @returns {Target}
 */
const anyInput = (target) => /** @type {Target} */ (/** @type {unknown} */ (target));

/** @typedef {import('./load-targets.mjs').WorkerParsers} WorkerParsers */

/** @param {Uint8Array} bytes */
const hex = (bytes) =>
  `${bytes.length} bytes: ${Buffer.from(bytes.subarray(0, 48)).toString('hex')}${bytes.length > 48 ? '…' : ''}`;
/** @param {string} value */
const text = (value) => JSON.stringify(value.length > 120 ? `${value.slice(0, 120)}…(${value.length})` : value);

/**
 * Format sniffing and header reading on every image kind.
 * @param {WorkerParsers} w
 * @param {Uint8Array[]} imageSeeds
 */
function imageHeaderTarget(w, imageSeeds) {
  return anyInput({
    name: 'image-header reader',
    seeds: imageSeeds.length,
    arbitrary: bytesFrom(imageSeeds, magics),
    describe: hex,
    async run(bytes) {
      const header = w.readImageHeader(bytes);
      w.sniffImageFormat(bytes);
      if (header) {
        assert(positiveInteger(header.width) && positiveInteger(header.height), 'dimensions are positive integers');
        w.isComplete(bytes, header.format);
        const orientation = w.readOrientation(bytes, header.format);
        assert(
          orientation.ok
            ? Number.isInteger(orientation.value) && orientation.value >= 1 && orientation.value <= 8
            : !!orientation.reason,
          'orientation is 1–8 or a doubt with a reason',
        );
        const colour = await w.readColour(bytes, header.format);
        assert(colour.ok || !!colour.reason, 'colours are sRGB or a doubt with a reason');
      }
    },
  });
}

/**
 * The progressive-JPEG scan scanner, whole and in chunks, and the JPEG walker.
 * @param {WorkerParsers} w
 * @param {Uint8Array[]} jpegSeeds
 */
function jpegScansTarget(w, jpegSeeds) {
  return anyInput({
    name: 'JPEG scan scanner',
    seeds: jpegSeeds.length,
    arbitrary: fc.tuple(bytesFrom(jpegSeeds, [magics[0]]), fc.integer({ min: 1, max: 4096 })),
    describe: ([bytes, chunk]) => `${hex(bytes)} in ${chunk}-byte chunks`,
    run([bytes, chunkBytes]) {
      const whole = w.scanImage(bytes);
      assert(whole.kind === 'done' || whole.kind === 'invalid', 'answers done or invalid');
      if (whole.kind === 'done') {
        const { headerEndBytes: header, previewEndBytes: preview, goodEndBytes: good } = whole.layout;
        assert(header > 0 && header <= bytes.length, 'header end inside the file');
        assert(preview === undefined || (preview >= header && preview <= bytes.length), 'preview after header');
        assert(good === undefined || (good >= (preview ?? header) && good <= bytes.length), 'good after preview');
      }
      const chunked = w.scanImage(bytes, undefined, chunkBytes);
      assert(JSON.stringify(chunked) === JSON.stringify(whole), 'same answer whatever the chunk size');
      // Read only to the preview (a small urgent image): the same offsets up to there, and it never reads further.
      const early = w.scanImage(bytes, undefined, chunkBytes, true);
      assert(
        early.kind === whole.kind || early.kind === 'done',
        'preview-only scan answers no worse than the full one',
      );
      if (early.kind === 'done' && whole.kind === 'done') {
        assert(early.layout.headerEndBytes === whole.layout.headerEndBytes, 'preview-only: same header end');
        assert(early.layout.previewEndBytes === whole.layout.previewEndBytes, 'preview-only: same preview end');
        if (early.layout.previewOnly) assert(early.layout.goodEndBytes === undefined, 'preview-only: no good end');
        else assert(early.layout.goodEndBytes === whole.layout.goodEndBytes, 'preview-only: same good end');
      }
      const walk = w.walkJpeg(bytes, { maxScans: 100, maxMarkers: 1000 });
      if (walk.ok) assert(walk.structure.scans <= 100 && walk.structure.markers <= 1000, 'walk within its limits');
    },
  });
}

// Seeds and dictionary of the URL options parser.
const optionSeeds = [
  'width=320,format=auto',
  'w=40,h=40,fit=cover,g=0.2x0.8',
  'width=300,height=200,fit=cover,gravity=top,format=auto',
  'width=240,height=240,fit=pad,format=auto',
  'w=24,dpr=2,q=50,f=webp,onerror=redirect,metadata=none,anim=false,sharpen=1.5',
  'f=json',
  'width=3900,height=3900,fit=pad,format=webp,q=84',
];
const optionWords = [
  'width',
  'w',
  'height',
  'h',
  'fit',
  'quality',
  'q',
  'format',
  'f',
  'dpr',
  'gravity',
  'g',
  '=',
  ',',
  '%2C',
  '1e9',
  '-1',
  '0.5',
  '4097',
  'NaN',
  '0x10',
  'auto',
  'pad',
  '\u0000',
  '..',
  // Names every object literal answers to (`g=valueOf` once gave a NaN crop).
  'valueOf',
  '__proto__',
  'constructor',
];

/**
 * `/cdn-cgi/image/<options>` parsing and the resize plan made from it.
 * @param {WorkerParsers} w
 */
function urlOptionsTarget(w) {
  return anyInput({
    name: 'URL options parser',
    seeds: optionSeeds.length,
    arbitrary: fc.tuple(
      textFrom(optionSeeds, optionWords),
      fc.integer({ min: 1, max: 40000 }),
      fc.integer({ min: 1, max: 40000 }),
    ),
    describe: ([segment, width, height]) => `${text(segment)} on ${width}x${height}`,
    run([segment, width, height]) {
      const max = w.imagesDefaults.maxOutputDimension;
      const parsed = w.parseOptions(segment, max);
      if (!parsed.ok) {
        assert(
          typeof parsed.error.reason === 'string' && parsed.error.reason.length > 0,
          'a rejection names its reason',
        );
        return;
      }
      const { options } = parsed;
      assert(
        options.width === undefined || (positiveInteger(options.width) && options.width <= max),
        'width within the limit',
      );
      assert(options.quality >= 1 && options.quality <= 100, 'quality 1..100');
      assert(options.dpr > 0 && options.dpr <= 2, 'dpr in (0, 2]');
      w.canonicalOptions(options);
      const plan = w.planResize({ width, height }, options, max);
      assert(
        positiveInteger(plan.width) && plan.width <= max && positiveInteger(plan.height) && plan.height <= max,
        `output within ${max} px`,
      );
      assert(
        plan.crop.x >= 0 &&
          plan.crop.y >= 0 &&
          plan.crop.x + plan.crop.width <= width &&
          plan.crop.y + plan.crop.height <= height,
        'crop inside the source',
      );
      assert(
        plan.offset.x + plan.resized.width <= plan.width && plan.offset.y + plan.resized.height <= plan.height,
        'resized fits the canvas',
      );
    },
  });
}

/**
 * The Accept parser and the format choice made from it.
 * @param {WorkerParsers} w
 */
function acceptTarget(w) {
  const acceptSeeds = [
    'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
    'image/webp,*/*',
    'image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5',
    'image/avif;q=0,image/webp;q=0.5',
    'application/javascript-binast, */*',
    '*',
    // RFC 9218 Priority request headers as Chromium sends them (the priority Worker reads them with browserSignal).
    'u=2, i',
    'i',
    'u=0',
  ];
  const acceptWords = [
    ...['image/avif', 'image/webp', ';q=', '0.001', '1.0000', ',', '*/*', 'q=0', ' ', '\t', ';', '/'],
    ...['u=', 'i', '?1', '?0', '7', '8', '='],
  ];
  return anyInput({
    name: 'Accept and Priority parsers',
    seeds: acceptSeeds.length,
    arbitrary: textFrom(acceptSeeds, acceptWords),
    describe: text,
    run(header) {
      const ranges = w.parseAccept(header);
      assert(ranges.length <= 64, 'at most 64 ranges');
      for (const range of ranges) assert(range.q >= 0 && range.q <= 1, 'q within 0..1');
      const format = w.chooseFormat(ranges, 'jpeg', ['avif', 'webp']);
      if (format) assert(w.explicitQuality(ranges, `image/${format}`) > 0, 'a chosen format was named with q > 0');
      let headers;
      try {
        headers = new Headers({ priority: header });
      } catch {
        return; // not a valid header value at all: no request can carry it
      }
      const signal = w.browserSignal(headers);
      if (signal) {
        assert(Number.isInteger(signal.urgency) && signal.urgency >= 0 && signal.urgency <= 7, 'urgency within 0..7');
        assert(typeof signal.incremental === 'boolean', 'incremental is a boolean');
      }
    },
  });
}

/** The first `count` files of test262-parser-tests' pass/ (name order), as bytes: seeds for the BinaryAST targets. */
function test262Scripts(/** @type {number} */ count) {
  const dir = join(repoRoot, 'node_modules', 'test262-parser-tests', 'pass');
  return readdirSync(dir)
    .sort()
    .slice(0, count)
    .map((name) => readFileSync(join(dir, name)));
}

/**
 * The BinaryAST decoder, seeded with real encodings of test262 scripts and the demo app; a fresh instance after
 * every trap.
 */
async function binastTarget() {
  const { encodeJavaScript } = await loadBinastEncoder();
  const scripts = test262Scripts(40).map((bytes) => bytes.toString('utf8'));
  scripts.push(readFileSync(join(repoRoot, 'apps', 'speedtest', 'public', 'demo', 'loader-app.js'), 'utf8'));
  // The context layout's paths for data (format 6): base64 and hex coded as bytes, through the models (pieces of a
  // Wasm module) and stored (pieces of a PNG), a data URL's header, and decimal numbers.
  const piece = (/** @type {string} */ path, /** @type {BufferEncoding} */ encoding) =>
    readFileSync(join(repoRoot, path)).subarray(0, 300).toString(encoding);
  const wasm = 'wasm/binast/pkg/binast_bg.wasm';
  const png = 'fixtures/images/coffee.png';
  scripts.push(
    `var w="data:application/wasm;base64,${piece(wasm, 'base64')}",p="${piece(png, 'base64')}",` +
      `x="${piece(wasm, 'hex')}",y="${piece(png, 'hex')}",n=[0.5,1e-6,0.130275,2.55,1e21,0.30000000000000004];`,
  );
  /** @type {Uint8Array[]} */
  const binastSeeds = [];
  for (const source of scripts) {
    for (const layout of /** @type {const} */ (['multipart', 'optimised', 'context'])) {
      try {
        binastSeeds.push(encodeJavaScript(source, { layout, lazyLevel: 1 }));
      } catch {
        // Scripts the encoder does not support (e.g. modules as scripts) are simply not seeds.
      }
    }
  }
  let generation = 1;
  let decoder = await loadBinastDecoder(generation);
  return anyInput({
    name: 'BinaryAST decoder',
    seeds: binastSeeds.length,
    arbitrary: bytesFrom(binastSeeds, [[...'BINJS'].map((c) => c.charCodeAt(0))]),
    describe: hex,
    run(bytes) {
      try {
        decoder.decodeToJavaScript(bytes);
      } catch (error) {
        // A decode error is the decoder's `Result` reaching JS: the expected answer to a bad input. A trap is not.
        if (error instanceof WebAssembly.RuntimeError || !(error instanceof Error)) throw error;
      }
    },
    async recover() {
      generation += 1;
      decoder = await loadBinastDecoder(generation);
    },
  });
}

/**
 * The prebuilt-file reader the BinaryAST Worker runs on whatever an origin serves as `<script>.binast`, seeded with
 * prebuilt files of test262 scripts. It may refuse anything; what it accepts must be the file's tail, of the length
 * and layout its header names.
 */
async function prebuiltTarget() {
  const { encodeJavaScript } = await loadBinastEncoder();
  const { readPrebuilt, writePrebuilt } = await import('@speedkit/binast/prebuilt');
  /** @type {Uint8Array[]} */
  const seeds = [];
  for (const source of test262Scripts(12)) {
    try {
      const encoding = encodeJavaScript(source.toString('utf8'), { layout: 'context' });
      seeds.push(await writePrebuilt(new Uint8Array(source), encoding, { layout: 'context', lazyLevel: 0 }));
    } catch {
      // Modules and the like are not seeds here.
    }
  }
  return anyInput({
    name: 'prebuilt BinaryAST reader',
    seeds: seeds.length,
    arbitrary: bytesFrom(seeds, [[...'BINAST-PREBUILT\n'].map((c) => c.charCodeAt(0))]),
    describe: hex,
    /** @param {Uint8Array} bytes */
    async run(bytes) {
      const read = await readPrebuilt(bytes);
      if (!read.ok) {
        assert(typeof read.reason === 'string' && read.reason.length > 0, 'a refusal says why');
        return;
      }
      const tail = bytes.subarray(bytes.length - read.encoding.length);
      assert(read.encoding.length === read.header.encodingBytes, 'the encoding has the length its header names');
      assert(
        tail.every((byte, index) => byte === read.encoding[index]),
        'the encoding is the file’s tail',
      );
      assert(['multipart', 'optimised', 'context'].includes(read.header.layout), 'a known layout');
    },
  });
}

/**
 * The speed test's `bytes` parameter and the image source locator (allow-list, no credentials, no loops).
 * @param {WorkerParsers} w
 */
function endpointTarget(w) {
  const base = new URL('https://site.example/cdn-cgi/image/w=1/x');
  const sourceConfig = { ...w.imagesDefaults, allowedOrigins: ['https://images.example'] };
  const paramSeeds = ['0', '100000', '1e5', '1.0', '250000000', '1000000000', '-1', '', ' 10', '0x10', '1e400'];
  const sourceSeeds = [
    'demo/images/a.jpg',
    'https://images.example/a.jpg',
    '//evil.example/x',
    '/\\evil.example',
    'https:/images.example/a',
    'cdn-cgi/image/w=1/x',
    'data:image/png;base64,xx',
    'http://user:pw@images.example/a.jpg',
    '%2e%2e/%2e%2e/etc',
  ];
  return anyInput({
    name: 'endpoint parameters',
    seeds: paramSeeds.length + sourceSeeds.length,
    arbitrary: fc.tuple(
      textFrom(paramSeeds, ['e', '+', '.', '0', '9', '-', ' ', 'E']),
      textFrom(sourceSeeds, [
        '/',
        '\\',
        '//',
        ':',
        '@',
        '%2F',
        '%5C',
        '..',
        'https://',
        'evil.example',
        '?',
        '#',
        '\t',
        '\n',
      ]),
    ),
    describe: ([bytes, source]) => `bytes=${text(bytes)} source=${text(source)}`,
    run([raw, source]) {
      const parsed = w.parseBytesParam(raw, w.maxDownloadBytes);
      if (parsed.ok)
        assert(
          Number.isSafeInteger(parsed.bytes) && parsed.bytes >= 0 && parsed.bytes <= w.maxDownloadBytes,
          'bytes within 0..cap',
        );
      else assert(parsed.status === 400 || parsed.status === 413, 'a rejection is 400 or 413');
      const located = w.locateSource(source, base, sourceConfig);
      if (located.ok) {
        const { url, ownOrigin } = located.source;
        assert(url.protocol === 'https:' || url.protocol === 'http:', 'http(s) only');
        assert(!url.username && !url.password, 'no credentials');
        if (ownOrigin) {
          assert(url.origin === base.origin, 'own-origin sources stay on the origin');
          assert(!url.pathname.startsWith('/cdn-cgi/'), 'no loops into /cdn-cgi/');
        } else {
          assert(sourceConfig.allowedOrigins.includes(url.origin), 'other origins only from the allow-list');
        }
      } else {
        assert([400, 403].includes(located.problem.status), 'a refusal is 400 or 403');
      }
    },
  });
}

/** @returns {Promise<Target[]>} */
export async function loadTargets() {
  const w = await loadWorkerParsers();
  const demoImages = [
    ...filesIn('apps/speedtest/public/demo/images/small', /\.(jpe?g|png|gif|webp|avif)$/),
    ...filesIn('apps/speedtest/public/demo/images/broken', /./),
  ];
  const priorityFixtures = filesIn('workers/test/priority/fixtures', /./);
  const imageSeeds = [...demoImages, ...priorityFixtures];
  const jpegSeeds = imageSeeds.filter((bytes) => bytes[0] === 0xff && bytes[1] === 0xd8);

  return [
    imageHeaderTarget(w, imageSeeds),
    jpegScansTarget(w, jpegSeeds),
    urlOptionsTarget(w),
    acceptTarget(w),
    await binastTarget(),
    await prebuiltTarget(),
    endpointTarget(w),
  ];
}
