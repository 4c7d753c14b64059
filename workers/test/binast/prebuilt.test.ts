import { env } from 'cloudflare:workers';
import { readPrebuilt, writePrebuilt } from '@speedkit/binast/prebuilt';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeScript, encodeScript } from '../../src/binast/codec';
import { defaultConfig } from '../../src/binast/config';
import { binastAccept, callBinast, clearVariants, demoScript } from './helpers';

const scriptPath = '/app/lib.js';
const settings = { layout: defaultConfig.layout, lazyLevel: defaultConfig.lazyLevel };

/** The demo library's bytes: a real script. */
const libraryBytes = async () =>
  new Uint8Array(await (await env.ASSETS.fetch(`http://assets.test${demoScript}`)).arrayBuffer());

const encodingOf = (bytes: Uint8Array, config = defaultConfig) =>
  encodeScript(new TextDecoder().decode(bytes), scriptPath, config);

/**
 * A site owner's origin: the script (with an ETag) and whatever files `siblings` holds, 404 for the rest. `asked`
 * records every path requested, with the headers the request carried.
 */
function origin(script: Uint8Array, siblings: Record<string, Uint8Array>, asked: [string, Headers][] = []) {
  return async (request: Request) => {
    const { pathname } = new URL(request.url);
    asked.push([pathname, request.headers]);
    if (pathname === scriptPath) {
      return new Response(script, { headers: { 'content-type': 'text/javascript', etag: '"lib-1"' } });
    }
    const file = siblings[pathname];
    return file ? new Response(file) : new Response('not found', { status: 404 });
  };
}

/** Where the miss put the encoding, and how it was made (`prebuilt` or `encoded`). */
async function storedOrigin(): Promise<string | undefined> {
  const listed = await env.VARIANTS?.list({ prefix: 'binast/', include: ['customMetadata'] });
  const entry = listed?.objects.find((object) => !object.key.endsWith('.failed'));
  return entry?.customMetadata?.origin;
}

/** Two requests asking for BinaryAST, as a miss then a hit would be. */
async function missThenAgain(next: (request: Request) => Promise<Response>, vars: Record<string, string> = {}) {
  const first = await callBinast(scriptPath, binastAccept, vars, next);
  const second = await callBinast(scriptPath, binastAccept, vars, next);
  return { first, second };
}

beforeEach(clearVariants);

describe('prebuilt BinaryAST beside the script', () => {
  it('stores the prebuilt encoding after its tree check and serves it from the next request', async () => {
    const script = await libraryBytes();
    const encoding = encodingOf(script);
    const asked: [string, Headers][] = [];
    const next = origin(script, { [`${scriptPath}.binast`]: await writePrebuilt(script, encoding, settings) }, asked);
    const { first, second } = await missThenAgain(next);
    expect(first.note).toBe('miss; encoding');
    expect(second.note).toBe('hit');
    expect(second.bytes).toEqual(encoding);
    expect(await storedOrigin()).toBe('prebuilt');
    // The sibling was asked for once, without the visitor's Accept.
    const siblingRequests = asked.filter(([path]) => path === `${scriptPath}.binast`);
    expect(siblingRequests).toHaveLength(1);
    expect(siblingRequests[0]?.[1].get('accept')).toBeNull();
  });

  it('encodes here when the prebuilt file was made from other bytes, is damaged, or is for another layout', async () => {
    const script = await libraryBytes();
    // An older build of the same length: only the SHA-256 tells them apart.
    const older = new TextEncoder().encode(
      new TextDecoder().decode(script).replace('VERSION="1.6.1"', 'VERSION="1.6.0"'),
    );
    expect(older).not.toEqual(script);
    expect(older.byteLength).toBe(script.byteLength);
    const good = await writePrebuilt(script, encodingOf(script), settings);
    const damaged = good.slice();
    damaged[damaged.length - 10] = (damaged[damaged.length - 10] ?? 0) ^ 0x40;
    const lazy = await writePrebuilt(script, encodingOf(script, { ...defaultConfig, lazyLevel: 1 }), {
      ...settings,
      lazyLevel: 1,
    });
    const cases: [string, Uint8Array][] = [
      ['stale', await writePrebuilt(older, encodingOf(older), settings)],
      ['damaged', damaged],
      ['lazy 1', lazy],
      ['plain JavaScript', script],
    ];
    // Under `trust` too: these checks are all that stands between a visitor and a wrong script there.
    for (const mode of ['verify', 'trust']) {
      for (const [name, file] of cases) {
        await clearVariants();
        const vars = { BINAST_PREBUILT: mode };
        const { second } = await missThenAgain(origin(script, { [`${scriptPath}.binast`]: file }), vars);
        expect(second.note, `${mode}: ${name}`).toBe('hit');
        expect(await storedOrigin(), `${mode}: ${name}`).toBe('encoded');
        expect(decodeScript(second.bytes), `${mode}: ${name}`).toBe(decodeScript(encodingOf(script)));
      }
    }
  });

  it('refuses a prebuilt file whose hashes match but whose program is another, unless told to trust the build', async () => {
    const script = await libraryBytes();
    const other = encodeScript('window.injected = true;', scriptPath, defaultConfig);
    const forged = await writePrebuilt(script, other, settings);
    const next = origin(script, { [`${scriptPath}.binast`]: forged });
    const verified = await missThenAgain(next);
    expect(await storedOrigin()).toBe('encoded');
    expect(verified.second.bytes).not.toEqual(other);
    await clearVariants();
    // `trust` is the site owner's statement that its build output is theirs: only the SHA-256s are checked.
    const trusted = await missThenAgain(next, { BINAST_PREBUILT: 'trust' });
    expect(await storedOrigin()).toBe('prebuilt');
    expect(trusted.second.bytes).toEqual(other);
  });

  it('serves a script over the encode limit from a trusted prebuilt file, and never asks with BINAST_PREBUILT=off', async () => {
    const script = await libraryBytes();
    const siblings = { [`${scriptPath}.binast`]: await writePrebuilt(script, encodingOf(script), settings) };
    const small = { BINAST_MAX_SOURCE_BYTES: '1000' };
    // Without a Content-Length the size is learnt on the miss, whose marker then serves JavaScript.
    expect((await missThenAgain(origin(script, siblings), small)).second.note).toBe('unsupported');
    await clearVariants();
    const trusted = await missThenAgain(origin(script, siblings), { ...small, BINAST_PREBUILT: 'trust' });
    expect(trusted.second.note).toBe('hit');
    await clearVariants();
    const asked: [string, Headers][] = [];
    const off = await missThenAgain(origin(script, siblings, asked), { BINAST_PREBUILT: 'off' });
    expect(off.second.note).toBe('hit');
    expect(await storedOrigin()).toBe('encoded');
    expect(asked.map(([path]) => path)).not.toContain(`${scriptPath}.binast`);
  });
});

describe('readPrebuilt on hostile files', () => {
  it('never throws, and accepts a mutated file only when the mutation left it intact', async () => {
    const script = new TextEncoder().encode('var a = [1, 2, 3].map((x) => x * 2);');
    const file = await writePrebuilt(script, encodingOf(script), settings);
    expect((await readPrebuilt(file)).ok).toBe(true);
    let seed = 7;
    const random = (limit: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % limit;
    };
    for (let round = 0; round < 400; round++) {
      const mutated = file.slice(0, round % 5 === 0 ? random(file.length) : file.length);
      for (let flips = 1 + random(3); flips > 0 && mutated.length > 0; flips--) {
        mutated[random(mutated.length)] = random(256);
      }
      const read = await readPrebuilt(mutated);
      if (read.ok) expect(read.encoding).toEqual(file.subarray(file.length - read.encoding.length));
    }
    const refusals = [
      new Uint8Array(),
      new TextEncoder().encode('BINAST-PREBUILT\n'),
      new TextEncoder().encode(`BINAST-PREBUILT\n${'x'.repeat(5000)}`),
      new TextEncoder().encode('BINAST-PREBUILT\n[1,2]\n'),
      new TextEncoder().encode('BINAST-PREBUILT\n{"layout":"__proto__"}\n'),
    ];
    for (const bytes of refusals) expect((await readPrebuilt(bytes)).ok).toBe(false);
  });
});
