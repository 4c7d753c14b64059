import { writePrebuilt } from '@speedkit/binast/prebuilt';
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeScript } from '../../src/binast/codec';
import { defaultConfig } from '../../src/binast/config';
import { binastAccept, callBinast, clearVariants } from './helpers';

// Under BINAST_PREBUILT=trust a script over BINAST_MAX_SOURCE_BYTES can only be served from its prebuilt file. One
// answer for that file that says "not now" (a 5xx, a 429, no answer within the deadline) is not a verdict on it.

beforeEach(clearVariants);

const path = '/big/lib.js';
const script = new TextEncoder().encode('var doubled = [1, 2, 3].map(function (x) { return x * 2; });');
const vars = { BINAST_PREBUILT: 'trust', BINAST_MAX_SOURCE_BYTES: '16' };

/** The origin: the script, and its prebuilt file answered by `sibling` (by how many times it was asked). */
function origin(sibling: (asks: number, file: Uint8Array) => Response) {
  let asks = 0;
  let file: Uint8Array | undefined;
  return async (request: Request) => {
    if (new URL(request.url).pathname === path) {
      return new Response(script, { headers: { 'content-type': 'text/javascript', etag: '"big-1"' } });
    }
    const encoding = encodeScript(new TextDecoder().decode(script), path, defaultConfig);
    file ??= await writePrebuilt(script, encoding, {
      layout: defaultConfig.layout,
      lazyLevel: defaultConfig.lazyLevel,
    });
    asks += 1;
    return sibling(asks, file);
  };
}

const notesOf = async (next: (request: Request) => Promise<Response>, requests: number) => {
  const notes: string[] = [];
  for (let index = 0; index < requests; index++) notes.push((await callBinast(path, binastAccept, vars, next)).note);
  return notes;
};

describe('a trusted prebuilt file that could not be had once', () => {
  it('is asked for again on a later miss, not given up on for good (a 503 while the origin deploys)', async () => {
    const next = origin((asks, file) => (asks === 1 ? new Response('busy', { status: 503 }) : new Response(file)));
    expect(await notesOf(next, 3)).toEqual(['miss; encoding', 'miss; encoding', 'hit']);
  });

  it('still marks the script when the file is not there (404): nothing here can encode it', async () => {
    const next = origin(() => new Response('not found', { status: 404 }));
    expect(await notesOf(next, 2)).toEqual(['miss; encoding', 'unsupported']);
  });
});
