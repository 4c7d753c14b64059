import { afterEach, describe, expect, it } from 'vitest';
import * as speedtest from '../src/index';
import { type LocalServer, startLocalServer } from './local-server.mjs';
import { readmeExample, runExample, typeCheckAsApp } from './readme-example.mjs';

// The README's example, as an app that depends on the package would compile it: the engine ships as TypeScript
// source, so the app's compiler options apply to the engine's files too.

/** A strict app of the kind people start from: DOM types without DOM.Iterable, index signatures read by name. */
const strictApp = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  types: [],
  noEmit: true,
};

describe('the README example in a third-party app', () => {
  it('imports @speedkit/speedtest by name and type-checks under a strict app tsconfig', () => {
    const code = readmeExample();
    expect(code).toContain("from '@speedkit/speedtest'");
    // A module of its own (the example awaits at top level); the app reads the CSV it built.
    expect(typeCheckAsApp(`${code}\nvoid csv;\nexport {};\n`, strictApp)).toEqual([]);
  }, 60_000);

  // Served from the page's origin ('' by default): here a real HTTP server on 127.0.0.1, and the page is on it.
  let server: LocalServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
    Reflect.deleteProperty(globalThis, 'location');
  });

  it('runs as written: progress and phase events, a result with the fields it reads, a CSV', async () => {
    server = await startLocalServer();
    Object.defineProperty(globalThis, 'location', { value: new URL(`${server.url}/`), configurable: true });
    const logged: unknown[][] = [];
    // The example builds the CSV and stops; the test prints it to look at it.
    const code = `${readmeExample()}\nconsole.log('csv', csv);\n`;
    await runExample(code, { ...speedtest }, (...values) => logged.push(values));
    const progress = logged.filter(([, fraction]) => typeof fraction === 'number');
    expect(progress.length).toBeGreaterThan(0);
    const phases = logged.filter(([, result]) => typeof result === 'object' && result !== null);
    expect(phases.map(([phase]) => phase)).toEqual(expect.arrayContaining(['latency', 'download', 'upload']));
    const [, csv] = logged.at(-1) ?? [];
    expect(String(csv).startsWith(`${speedtest.csvColumns.join(',')}\r\n`)).toBe(true);
    // The line before: download bit/s, the idle latency's Estimate, overall RPM.
    const [bitsPerSecond, idleMs, rpm] = logged.at(-2) ?? [];
    expect(bitsPerSecond).toBeGreaterThan(0);
    expect(idleMs).toMatchObject({ value: expect.any(Number), level: expect.any(String) });
    expect(rpm).toBeGreaterThan(0);
  }, 60_000);
});
