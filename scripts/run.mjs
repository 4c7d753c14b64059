// Entry point of `npm start`, `npm test`, `npm run build|setup|deploy|bench:*`. Runs on any Node >= 20: it installs the
// toolchain first, then runs everything else with the project's Node 22 and tools first on PATH.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { build } from './build.mjs';
import { wranglerDeployArgs } from './lib/deploy-args.mjs';
import { exitWithError } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';
import { startTurnServer, turnserverBinary, writeTurnDevVars } from './lib/turn.mjs';
import { setup } from './setup.mjs';
import { runTests } from './test.mjs';

/**
 * Hands the terminal to a long-running command (wrangler dev / deploy) and exits with its code.
 * @param {string} command
 * @param {string[]} args
 * @param {() => void} [onExit] runs before exiting (stops the TURN server `npm start` started)
 */
function handOver(command, args, onExit = () => {}) {
  const child = spawn(command, args, { cwd: repoRoot, env: toolEnv(), stdio: 'inherit' });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('close', (code) => {
    onExit();
    process.exit(code ?? 1);
  });
}

/** Starts coturn for the packet-loss phase when it is installed, and says in one line what happened. */
async function startLocalTurn() {
  if (!existsSync(turnserverBinary)) {
    writeTurnDevVars(null);
    process.stdout.write(
      'TURN: coturn not installed, the packet-loss row will be hidden (`sudo apt-get install coturn`)\n',
    );
    return () => {};
  }
  try {
    const turn = await startTurnServer();
    writeTurnDevVars(turn);
    process.stdout.write(`TURN: coturn relaying for the packet-loss test at ${turn.urls[0]} (secret in .dev.vars)\n`);
    // Once wrangler exits the relay is gone: drop its secret too, so a later `wrangler dev` (e2e) does not offer it.
    return () => {
      turn.stop();
      writeTurnDevVars(null);
    };
  } catch (error) {
    writeTurnDevVars(null);
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    process.stdout.write(`TURN: coturn did not start (${reason}), the packet-loss row will be hidden\n`);
    return () => {};
  }
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
      const stopTurn = await startLocalTurn();
      process.stdout.write(`\nServing everything at http://localhost:${port} (Ctrl+C to stop)\n\n`);
      handOver('wrangler', ['dev', '--port', port, '--ip', '127.0.0.1', ...rest], stopTurn);
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
      handOver('wrangler', wranglerDeployArgs(rest, process.env));
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
