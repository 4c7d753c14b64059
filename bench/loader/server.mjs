// Static server for the loader benchmark: serves apps/speedtest/dist like a CDN would (brotli, cacheable), and
// answers `.js` requests that accept BinaryAST with an encoding made at start-up by the project's own encoder
// (wasm/binast, context layout, lazy level 0: the Worker's defaults). Both JavaScript and BinaryAST are
// compressed the same way, as a pre-compressing CDN would: brotli q11 when the client accepts it, else gzip -9
// (Chromium offers brotli only over HTTPS, so on this plain-HTTP bench link both sides travel as gzip). The
// comparison is about the formats, not about one side being sent raw.
// Pages get what the BinaryAST Worker's size-hint middleware adds (workers/src/binast/size-hint.ts): each opt-in
// script carries `data-binast-size="<js bytes> <binast bytes>"` (gzip -9 of both, what this link carries), and the
// ones the loader is going to run plain (the loader's own `shouldPreload`, fed the request's cookies, as the Worker
// decides) go back to plain `<script src>` (`nativeScriptRule`), or, after a script the loader runs, get a
// `<link rel=preload>` plus `data-binast-preloaded`, so the loader's cost model sees the real ratio of the format
// under test. `?always` on a page adds `data-always` to the loader's tag (the model is
// skipped: every script is fetched as BinaryAST, and no preload is added), to measure what the model avoids.
// `?deploy=N` stands for the site's N-th deploy: the page's libraries and app get `?v=N` (same bytes, new URLs, as a
// build with hashed or versioned names gives), so an earlier deploy's scripts in the HTTP cache do not serve the new
// page; the loader's own URL stays (it does not change with the site's deploys).
// Usage: node bench/loader/server.mjs <port>  -> prints one JSON line `{"ready":...}` with per-script sizes.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { encodeJavaScript } from '@speedkit/binast';
import { initSync } from '@speedkit/binast/wasm';
import {
  binastFetchPath,
  binastQuery,
  loaderTagPlacement,
  nativeScriptRule,
  preloadsBinast,
  ranPlainBefore,
  readPlainCookie,
  readVisitor,
  shouldPreload,
  visitorHint,
} from '@speedkit/binast-loader';

const root = new URL('../../apps/speedtest/dist/', import.meta.url).pathname;
const port = Number(process.argv[2] ?? 8816);
const types = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};
const binastType = 'application/javascript-binast';
/** The scripts of the demo pages; BinaryAST is prepared for exactly these. */
export const benchScripts = [
  '/demo/loader/lib/react.js',
  '/demo/loader/lib/react-dom.js',
  '/demo/loader/lib/d3.js',
  '/demo/loader/lib/lodash.js',
  '/demo/loader-app.js',
];

// Encoder and the decoder the pages load are read once, from the same build of wasm/binast, so a rebuild of wasm/binast
// or of the SPA during a run cannot pair an encoding with a decoder of another format version.
// The pages get the decoder exactly as the loader ships it (packages/binast-loader/dist: the Web Worker client, the
// worker, the decode-only build's glue and Wasm); the encoder is the full build.
const pkg = new URL('.', import.meta.resolve('@speedkit/binast/wasm'));
const loaderDist = new URL('../../packages/binast-loader/dist/', import.meta.url);
const decoderFiles = new Map(
  ['binast.js', 'binast-worker.js', 'binast-wasm.js', 'binast_bg.wasm', 'binast-remember.js'].map((name) => [
    `/demo/loader/${name}`,
    readFileSync(new URL(name, loaderDist)),
  ]),
);
initSync({ module: readFileSync(new URL('binast_bg.wasm', pkg)) });

/** @typedef {'br' | 'gzip' | 'identity'} Coding */
/** @type {Record<Coding, (bytes: Uint8Array) => Uint8Array>} */
const compress = {
  br: (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  gzip: (bytes) => gzipSync(bytes, { level: 9 }),
  identity: (bytes) => bytes,
};

/** @type {Map<string, Uint8Array>} BinaryAST of each bench script */
const binast = new Map();
/** @type {Record<string, Record<string, number>>} */
const sizes = {};
for (const path of benchScripts) {
  const source = readFileSync(join(root, path));
  const startMs = performance.now();
  const encoded = encodeJavaScript(source.toString('utf8'));
  const encodeMs = performance.now() - startMs;
  binast.set(path, encoded);
  sizes[path] = {
    jsBytes: source.length,
    jsGzipBytes: compress.gzip(source).length,
    jsBrotliBytes: compress.br(source).length,
    binastBytes: encoded.length,
    binastGzipBytes: compress.gzip(encoded).length,
    binastBrotliBytes: compress.br(encoded).length,
    encodeMs: Math.round(encodeMs),
  };
}

/**
 * The page as the Worker's size-hint middleware serves it (see the header comment).
 * @param {string} html
 * @param {{ always: boolean, deploy: string | null, cookie: string | undefined }} request
 */
function annotate(html, { always, deploy, cookie }) {
  const visitor = readVisitor(cookie);
  // What the Worker appends to each hint from the visitor's cookies (`visitorHint`, shared with it), and the scripts
  // earlier views ran plain: the same for every script.
  const fromCookies = visitorHint(cookie);
  const plainKeys = readPlainCookie(cookie);
  const versioned = deploy
    ? html.replace(/(src="(?:\/demo\/loader\/lib\/[\w-]+|\/demo\/loader-app)\.js)"/g, `$1?v=${deploy}"`)
    : html;
  const native = nativeScriptRule();
  // The demo pages' opt-in scripts are all classic blocking ones.
  const marked = versioned.replace(/<script type="binast" src="([^"]+)"><\/script>/g, (tag, src) => {
    const size = sizes[src.replace(/\?.*/, '')];
    // An earlier view ran this version plain: its copy in the HTTP cache wins (`ranPlainBefore`, as the Worker).
    const ranPlain = !!size && ranPlainBefore(plainKeys, src, size.jsGzipBytes);
    // A forced page gets no preloads: they would download the JavaScript next to the BinaryAST.
    const runsPlain = !!size && !always && shouldPreload(size.jsGzipBytes, size.binastGzipBytes, visitor, ranPlain);
    if (!size) {
      native({ runsPlain, mode: 'blocking' });
      return tag;
    }
    const hint = `data-binast-size="${size.jsGzipBytes} ${size.binastGzipBytes}${fromCookies}"`;
    if (native({ runsPlain, mode: 'blocking' })) return `<script src="${src}" ${hint}></script>`;
    if (runsPlain)
      return `<link rel="preload" as="script" href="${src}"><script type="binast" src="${src}" ${hint} data-binast-preloaded></script>`;
    // BinaryAST preloaded by its own URL where the loader is going to ask for it at once (`preloadsBinast`).
    if (preloadsBinast(visitor, runsPlain, ranPlain)) {
      const early = binastFetchPath(src);
      return `<link rel="preload" as="fetch" crossorigin href="${early}"><script type="binast" src="${src}" ${hint} data-binast-fetch="${early}"></script>`;
    }
    return `<script type="binast" src="${src}" ${hint}></script>`;
  });
  return placeLoaderTag(always ? marked.replace('binast-loader.min.js"', 'binast-loader.min.js" data-always') : marked);
}

/**
 * The loader's tag moved as the Worker moves it (`loaderTagPlacement`): down to the first script that may need the
 * loader (not one written back), else to the end of the body. The demo pages' tags are all `<script …></script>`.
 * @param {string} html
 */
function placeLoaderTag(html) {
  const placement = loaderTagPlacement();
  /** @param {string} attributes @param {string} name */
  const attribute = (attributes, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
  const placed = html.replace(/<script\b([^>]*)>(?:[^<]*)<\/script>|<\/body>/g, (tag, attributes) => {
    if (attributes === undefined) return placement.end() + tag;
    const type = attribute(attributes, 'type') ?? '';
    const loader = {
      src: attribute(attributes, 'src') ?? '',
      type,
      async: /\sasync\b/.test(attributes),
      defer: /\sdefer\b/.test(attributes),
    };
    if (placement.hold(loader, () => tag)) return '';
    const writtenBack = type === '' && attribute(attributes, 'data-binast-size') !== undefined;
    return placement.before({ type, writtenBack }) + tag;
  });
  return placed + placement.end();
}

/** @type {Map<string, Uint8Array>} compressed bodies, made on first use */
const bodies = new Map();
/**
 * @param {string} key
 * @param {Coding} coding
 * @param {() => Uint8Array} read
 */
function body(key, coding, read) {
  const cacheKey = `${coding}:${key}`;
  let bytes = bodies.get(cacheKey);
  if (!bytes) {
    bytes = compress[coding](read());
    bodies.set(cacheKey, bytes);
  }
  return bytes;
}

/** Maps a URL path to a file of dist, the way Workers static assets do (`/x` serves `x.html`). */
function fileFor(/** @type {string} */ pathname) {
  const clean = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, '');
  for (const candidate of [clean, `${clean}.html`, join(clean, 'index.html')]) {
    const full = join(root, candidate);
    if (full.startsWith(root) && existsSync(full) && statSync(full).isFile()) return full;
  }
  return null;
}

createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://bench');
  const acceptEncoding = request.headers['accept-encoding'] ?? '';
  /** @type {Coding} */
  const coding = /\bbr\b/.test(acceptEncoding) ? 'br' : /\bgzip\b/.test(acceptEncoding) ? 'gzip' : 'identity';
  const encodingHeader = coding === 'identity' ? {} : { 'content-encoding': coding };
  const headers = { 'cache-control': 'public, max-age=3600', vary: 'Accept, Accept-Encoding', ...encodingHeader };
  const encoded =
    (request.headers.accept ?? '').includes(binastType) || url.searchParams.has(binastQuery)
      ? binast.get(url.pathname)
      : undefined;
  if (encoded) {
    response.writeHead(200, { ...headers, 'content-type': binastType });
    response.end(body(`binast:${url.pathname}`, coding, () => encoded));
    return;
  }
  const decoder = decoderFiles.get(url.pathname);
  if (decoder) {
    const type = url.pathname.endsWith('.wasm') ? types['.wasm'] : types['.js'];
    response.writeHead(200, { ...headers, 'content-type': type });
    response.end(body(`decoder:${url.pathname}`, coding, () => decoder));
    return;
  }
  const file = fileFor(url.pathname);
  if (!file) {
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
    return;
  }
  const type = types[/** @type {keyof typeof types} */ (extname(file))] ?? 'application/octet-stream';
  response.writeHead(200, { ...headers, 'content-type': type });
  if (type.startsWith('text/html')) {
    // Made per request: what the page says depends on the visitor's cookies, as the Worker's answer does.
    const page = annotate(readFileSync(file, 'utf8'), {
      always: url.searchParams.has('always'),
      deploy: url.searchParams.get('deploy'),
      cookie: request.headers.cookie,
    });
    response.end(compress[coding](Buffer.from(page)));
    return;
  }
  response.end(body(file, coding, () => readFileSync(file)));
}).listen(port, '0.0.0.0', () => {
  process.stdout.write(`${JSON.stringify({ ready: true, port, sizes })}\n`);
});
