// `node bench/images/attack.mjs [--seconds N] [--port P]` (also the last part of `npm run bench:images`): the hostile
// image requests of issue #20 against a `wrangler dev` of this tree, while /meta is asked every 100 ms. Reports per
// phase the attack's answers and /meta's latency (p50, p99, max); the goal is /meta < 1 s throughout. Writes
// bench/results/images-attack.{csv,json}. Loopback only; every loop is bounded by the phase's duration.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { importWorkerCode } from '../lib/import-worker-code.mjs';
import { startServer } from '../speedtest/server.mjs';

const argv = process.argv.slice(2);
/** @param {string} name @param {number} fallback */
const flag = (name, fallback) => {
  const at = argv.indexOf(name);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const phaseSeconds = flag('--seconds', 10);
const port = flag('--port', Number(process.env.PORT ?? 8811));

/** The hostile JPEG built by the same code the Worker tests use (workers/test/images/hostile.ts). */
async function hostileJpeg() {
  const { manyScanJpeg } = await importWorkerCode(
    ["export { manyScanJpeg } from './hostile';"],
    join(repoRoot, 'workers/test/images'),
  );
  return manyScanJpeg(1728, 10_000);
}

/**
 * A loopback origin for the hostile file (an absolute source on IMAGES_ALLOWED_ORIGINS).
 * @param {Uint8Array} jpeg
 * @returns {Promise<import('node:http').Server>}
 */
function startOrigin(jpeg) {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.byteLength });
    response.end(jpeg);
  });
  // An ephemeral port: no assigned port of anyone else's can be taken by it.
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const base = `http://127.0.0.1:${port}`;
/** @param {number[]} values @param {number} p percent */
const percentile = (values, p) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/**
 * One timed request; the body is read fully (a response is only over when its bytes are).
 * @param {string} url
 * @returns {Promise<{ ms: number, status: number | string }>}
 */
async function timed(url) {
  const startMs = performance.now();
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return { ms: performance.now() - startMs, status: response.status };
  } catch (error) {
    const failure = /** @type {Error & { cause?: { code?: string } }} */ (error);
    return { ms: performance.now() - startMs, status: `error ${failure.cause?.code ?? failure.message}` };
  }
}

/**
 * Runs `attackers` loops of hostile requests for the phase's duration and asks /meta every 100 ms meanwhile.
 * @param {string} name
 * @param {((i: number, n: number) => string)[]} attackers each gives the URL of its n-th request
 */
async function phase(name, attackers) {
  const endMs = performance.now() + phaseSeconds * 1000;
  /** @type {{ ms: number, status: number | string }[]} */
  const attack = [];
  const loops = attackers.map(async (urlOf, i) => {
    for (let n = 0; performance.now() < endMs; n += 1) attack.push(await timed(urlOf(i, n)));
  });
  const meta = [];
  while (performance.now() < endMs) {
    meta.push((await timed(`${base}/meta`)).ms);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await Promise.all(loops);
  /** @type {Record<string, number>} */
  const statuses = {};
  for (const { status } of attack) statuses[status] = (statuses[status] ?? 0) + 1;
  const row = {
    phase: name,
    attackRequests: attack.length,
    statuses: Object.entries(statuses)
      .map(([status, count]) => `${count}× ${status}`)
      .join(', '),
    attackP50Ms: percentile(
      attack.map((a) => a.ms),
      50,
    ),
    attackMaxMs: Math.max(0, ...attack.map((a) => a.ms)),
    metaRequests: meta.length,
    metaP50Ms: percentile(meta, 50),
    metaP99Ms: percentile(meta, 99),
    metaMaxMs: Math.max(...meta),
    load1: loadavg()[0],
  };
  console.log(
    `  ${name}: /meta p50 ${row.metaP50Ms.toFixed(0)} ms, max ${row.metaMaxMs.toFixed(0)} ms; attack ${row.statuses}`,
  );
  return row;
}

const photo = '/demo/images/hubble_deep_field.jpg';
const jpeg = await hostileJpeg();
const origin = await startOrigin(jpeg);
const originPort = /** @type {import('node:net').AddressInfo} */ (origin.address()).port;
const { stop } = await startServer(port, ['--var', `IMAGES_ALLOWED_ORIGINS:http://127.0.0.1:${originPort}`]);
const rows = [];
try {
  console.log(`wrangler dev on ${base}; ${phaseSeconds} s per phase; load average ${loadavg()[0].toFixed(1)}`);
  await timed(`${base}/cdn-cgi/image/width=50,format=webp${photo}`); // instantiate the codecs once
  rows.push(await phase('idle (no attack)', []));
  rows.push(
    await phase(
      '4 concurrent width=W,height=W,fit=pad,format=webp,q=81..84 (W 3000–3900)',
      [3000, 3300, 3600, 3900].map(
        (size, i) => (_, n) =>
          `${base}/cdn-cgi/image/width=${size},height=${size},fit=pad,format=webp,q=${81 + i}${n ? `,dpr=${1 + (n % 100) / 100}` : ''}${photo}`,
      ),
    ),
  );
  rows.push(
    await phase('1728² progressive JPEG, 10,000 empty AC scans → width=100,format=webp', [
      () => `${base}/cdn-cgi/image/width=100,format=webp/http://127.0.0.1:${originPort}/scans.jpg`,
    ]),
  );
  rows.push(
    await phase('HTML page as the source (/cdn-cgi/image/width=100/demo/images.html)', [
      () => `${base}/cdn-cgi/image/width=100/demo/images.html`,
    ]),
  );
  // The heaviest work the defaults still allow, never cached (a new quality each time): what honest traffic can cost.
  rows.push(
    await phase(
      '4 concurrent allowed transforms (width=900,height=900,fit=pad,format=webp, new q each)',
      [0, 1, 2, 3].map(
        (i) => (_, n) =>
          `${base}/cdn-cgi/image/width=900,height=900,fit=pad,format=webp,q=${1 + ((n * 4 + i) % 100)}${photo}`,
      ),
    ),
  );
} finally {
  await stop();
  origin.close();
}

console.log(
  '\n| phase | attack requests | answers | attack p50 ms | /meta n | /meta p50 ms | /meta p99 ms | /meta max ms | load (1 min) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.phase} | ${r.attackRequests} | ${r.statuses || '–'} | ${Number.isNaN(r.attackP50Ms) ? '–' : r.attackP50Ms.toFixed(0)} | ${r.metaRequests} | ${r.metaP50Ms.toFixed(0)} | ${r.metaP99Ms.toFixed(0)} | ${r.metaMaxMs.toFixed(0)} | ${r.load1.toFixed(1)} |`,
  );
const resultsDir = join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'images-attack.json'),
  `${JSON.stringify({ date: new Date().toISOString(), phaseSeconds, rows }, null, 2)}\n`,
);
const csvRows = rows.map((r) =>
  [
    JSON.stringify(r.phase),
    r.attackRequests,
    JSON.stringify(r.statuses),
    r.attackP50Ms.toFixed(1),
    r.metaRequests,
    r.metaP50Ms.toFixed(1),
    r.metaP99Ms.toFixed(1),
    r.metaMaxMs.toFixed(1),
    r.load1.toFixed(2),
  ].join(','),
);
writeFileSync(
  join(resultsDir, 'images-attack.csv'),
  `phase,attack_requests,answers,attack_p50_ms,meta_requests,meta_p50_ms,meta_p99_ms,meta_max_ms,load1\n${csvRows.join('\n')}\n`,
);
console.log('wrote bench/results/images-attack.{csv,json}');
const worstMetaMs = Math.max(...rows.map((r) => r.metaMaxMs));
console.log(`/meta max over all phases: ${worstMetaMs.toFixed(0)} ms (goal < 1000 ms)`);
