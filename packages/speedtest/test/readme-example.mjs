// The README's library example, read from the README itself, so the test that runs it cannot drift from the doc. In
// plain JavaScript, like local-server.mjs, so the package's TypeScript stays free of Node's types.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The first ```ts block of packages/speedtest/README.md. */
export function readmeExample() {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('packages/speedtest/README.md has no ```ts block');
  return block[1];
}

/**
 * Type-checks `code` as a file of a third-party app with its own tsconfig would be: it imports the package by name
 * (resolved through node_modules and the package's `exports`, so the engine's sources are checked under the app's
 * options). The file is virtual, placed beside the package so that node_modules/@speedkit/speedtest is found.
 */
export function typeCheckAsApp(code, compilerOptions) {
  const fileName = join(packageDir, 'test', '__app__.ts');
  const options = ts.convertCompilerOptionsFromJson(compilerOptions, packageDir);
  if (options.errors.length > 0) throw new Error(ts.flattenDiagnosticMessageText(options.errors[0].messageText, '\n'));
  const host = ts.createCompilerHost(options.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version) =>
    name === fileName ? ts.createSourceFile(name, code, version) : getSourceFile(name, version);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options.options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(packageDir.length + 1)}: ` : '';
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
  });
}

/**
 * Runs `code` (the README example: TypeScript, one `import { … } from '@speedkit/speedtest'`) with the names it
 * imports bound from `packageExports`, and its `console` replaced by `log`. Its last statement's value is not
 * returned; what it logged is.
 */
export async function runExample(code, packageExports, log) {
  const importLine = /^import \{([^}]*)\} from '@speedkit\/speedtest';\n/m;
  const names = importLine.exec(code)?.[1];
  if (names === undefined) throw new Error("the example has no import from '@speedkit/speedtest'");
  const body = ts.transpileModule(code.replace(importLine, ''), {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
  }).outputText;
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
  const run = new AsyncFunction('__package', 'console', `const {${names}} = __package;\n${body}`);
  await run(packageExports, { log });
}
