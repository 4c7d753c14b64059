import { parseJavaScript } from '@speedkit/binast';
import { pageRelativeReason } from '@speedkit/binast/page-relative';
import { beforeEach, describe, expect, it } from 'vitest';
import { binastAccept, callBinast, clearVariants } from './helpers';

const reasonOf = (source: string) => pageRelativeReason(parseJavaScript(source, 'module'));

describe('pageRelativeReason', () => {
  it('names what a module would resolve against the page when the loader runs it', () => {
    expect(reasonOf('import { v } from "./vendor.js"; v();')).toBe('imports ./vendor.js relative to the script');
    expect(reasonOf('export * from "../shared.js";')).toBe('imports ../shared.js relative to the script');
    expect(reasonOf('export { a } from "./a.js";')).toBe('imports ./a.js relative to the script');
    expect(reasonOf('const m = await import("./lazy.js");')).toBe('imports ./lazy.js relative to the script');
    expect(reasonOf('const m = await import(`./lazy.js`);')).toBe('imports ./lazy.js relative to the script');
    expect(reasonOf('const m = await import(name);')).toBe('imports a specifier computed at run time');
    expect(reasonOf('fetch(new URL("./data.json", import.meta.url));')).toBe('reads import.meta');
    expect(reasonOf('function f() { return () => import.meta.env; }')).toBe('reads import.meta');
  });

  it('lets through what resolves the same from any page of the site', () => {
    for (const source of [
      'import React from "react"; export default React;',
      'import "/assets/polyfill.js"; export * from "https://cdn.example/x.js";',
      'const m = await import("/assets/lazy.js");',
      'export const a = "./not-an-import.js"; export default 1;',
    ]) {
      expect(reasonOf(source), source).toBeNull();
    }
  });
});

describe('the Worker and modules with relative imports', () => {
  beforeEach(clearVariants);
  const origin = (source: string) => async () =>
    new Response(source, { headers: { 'content-type': 'text/javascript', etag: '"m1"' } });

  it('serves a chunk that imports its neighbour as JavaScript, never as BinaryAST', async () => {
    const chunk = 'import { v } from "./vendor.js"; export default v + 1;';
    await callBinast('/assets/index.js', binastAccept, {}, origin(chunk));
    const again = await callBinast('/assets/index.js', binastAccept, {}, origin(chunk));
    expect(again.note).toBe('unsupported');
    expect(new TextDecoder().decode(again.bytes)).toBe(chunk);
  });

  it('encodes a self-contained module as before', async () => {
    const module = 'import React from "react"; export default React.createElement("p");';
    await callBinast('/assets/app.js', binastAccept, {}, origin(module));
    expect((await callBinast('/assets/app.js', binastAccept, {}, origin(module))).note).toBe('hit');
  });
});
