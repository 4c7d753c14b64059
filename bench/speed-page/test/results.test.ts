import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareOutDir } from '../results.mjs';

// `--out` is checked before the lab starts (run.mjs): until 2026-11-28 a file's path there was found only after every
// run, which were then lost with a bare "EEXIST: file already exists, mkdir …".
const work = mkdtempSync(join(tmpdir(), 'speed-page-results-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('prepareOutDir', () => {
  it('creates the report folder with its parents', () => {
    const dir = join(work, 'reports', 'today');
    prepareOutDir(dir);
    expect(statSync(dir).isDirectory()).toBe(true);
    // An existing folder is fine too.
    prepareOutDir(dir);
  });

  it('says so when a file is in the way, before anything runs', () => {
    const file = join(work, 'report.html');
    writeFileSync(file, 'not a folder');
    expect(() => prepareOutDir(file)).toThrow(`--out ${file}: cannot create the report folder (a file is in the way)`);
    expect(() => prepareOutDir(join(file, 'sub'))).toThrow('a file is in the way');
  });
});
