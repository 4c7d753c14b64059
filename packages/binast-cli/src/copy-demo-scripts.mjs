// Copies the browser-runnable corpus libraries to apps/speedtest/public/demo/scripts/ (gitignored) so the demo site
// and the e2e tests fetch real scripts through the BinaryAST Worker. Run by scripts/build.mjs as a cached step.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { libraries } from './corpus.mjs';

const out = fileURLToPath(new URL('../../../apps/speedtest/public/demo/scripts/', import.meta.url));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const copied = [];
for (const library of libraries.filter((l) => l.demo)) {
  copyFileSync(library.path, `${out}${basename(library.path)}`);
  copied.push(`/demo/scripts/${basename(library.path)}`);
}
writeFileSync(`${out}index.json`, `${JSON.stringify(copied, null, 2)}\n`);
process.stdout.write(`copied ${copied.length} demo scripts\n`);
