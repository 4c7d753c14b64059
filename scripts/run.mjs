// Entry point of `npm start`, `npm test`, `npm run build|setup|deploy|bench:*`. Runs on any Node >= 20: it installs the
// toolchain first, then runs everything else with the project's Node 22 and tools first on PATH.
import { spawn } from 'node:child_process';
import { build } from './build.mjs';
import { exitWithError } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';
import { setup } from './setup.mjs';
import { runTests } from './test.mjs';

/**
 * Hands the terminal to a long-running command (wrangler dev / deploy) and exits with its code.
 * @param {string} command
 * @param {string[]} args
 */
function handOver(command, args) {
  const child = spawn(command, args, { cwd: repoRoot, env: toolEnv(), stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('close', (code) => process.exit(code ?? 1));
}

const [task = 'start', ...rest] = process.argv.slice(2);

try {
  switch (task) {
    case 'setup':
      await setup();
      break;
    case 'build':
      await setup({ browser: false, lab: false });
      await build();
      break;
    case 'start': {
      await setup({ browser: false, lab: false });
      await build();
      const port = process.env.PORT ?? '8787';
      process.stdout.write(`\nServing everything at http://localhost:${port} (Ctrl+C to stop)\n\n`);
      handOver('wrangler', ['dev', '--port', port, '--ip', '127.0.0.1', ...rest]);
      break;
    }
    case 'bench': {
      // `npm run bench:<name> -- [args]`: benchmarks need the same toolchain and build as the tests.
      const [name, ...args] = rest;
      if (!name) throw new Error('bench needs a name, e.g. `node scripts/run.mjs bench images`');
      await setup();
      await build();
      // `node scripts/run.mjs bench x -- --flag` passes the `--` npm would have eaten: drop it here too.
      handOver('node', [`bench/${name}/run.mjs`, ...(args[0] === '--' ? args.slice(1) : args)]);
      break;
    }
    case 'deploy':
      await setup({ browser: false, lab: false });
      await build();
      handOver('wrangler', ['deploy', ...rest]);
      break;
    case 'test': {
      await setup();
      await build();
      const ok = await runTests(rest);
      process.exit(ok ? 0 : 1);
      break;
    }
    default:
      throw new Error(`unknown task "${task}": use setup, build, start, test, bench or deploy`);
  }
} catch (error) {
  exitWithError(error);
}
