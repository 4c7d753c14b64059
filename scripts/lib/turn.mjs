// A local TURN server (coturn) for the speed test's packet-loss phase: started by `npm start` and by the e2e/smoke
// runs when /usr/bin/turnserver is present. It relays on loopback only; the secret is made per run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './tools.mjs';

export const turnserverBinary = '/usr/bin/turnserver';

/**
 * Starts turnserver on 127.0.0.1 (or `listenIp`) with `use-auth-secret` (TURN REST API credentials) and a few relay
 * ports. Resolves once it listens; the caller stops it with `.stop()`. `spawn` lets the lab start it inside a
 * network namespace (bench/loss).
 * @param {{ listenPort?: number, minRelayPort?: number, relayPorts?: number, secret?: string, listenIp?: string,
 *   spawn?: (command: string, args: string[]) => import('node:child_process').ChildProcess }} [options]
 * @returns {Promise<{ secret: string, urls: string[], stop: () => Promise<void> }>}
 */
export function startTurnServer(options = {}) {
  const listenIp = options.listenIp ?? '127.0.0.1';
  const listenPort = options.listenPort ?? Number(process.env.TURN_PORT ?? 3478);
  const minRelayPort = options.minRelayPort ?? listenPort + 20000;
  const maxRelayPort = minRelayPort + (options.relayPorts ?? 16) - 1;
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const args = [
    '-n', // no config file: everything is on this command line
    `--listening-ip=${listenIp}`,
    `--listening-port=${listenPort}`,
    `--relay-ip=${listenIp}`,
    `--min-port=${minRelayPort}`,
    `--max-port=${maxRelayPort}`,
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    '--realm=speedkit.local',
    '--fingerprint',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    '--no-tcp-relay',
    // Both peers of the loss test are on this machine, so their relays talk to each other over loopback.
    '--allow-loopback-peers',
    '--log-file=stdout',
    '--simple-log',
  ];
  const child = options.spawn
    ? options.spawn(turnserverBinary, args)
    : spawn(turnserverBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const { stdout, stderr } = child;
  if (!stdout || !stderr) throw new Error('turnserver must be spawned with piped stdout and stderr');
  let log = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  /** SIGTERM; the promise settles once it has exited (its ports are free again), 3 s at most. */
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]).then(() => {});
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`turnserver did not start listening within 10 s:\n${log.slice(-2000)}`));
    }, 10_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      log += chunk.toString();
      // coturn's last start-up line before it serves is the count of its relay servers; its listener threads come
      // up right after, so a short settle avoids a first allocation that finds no listener yet.
      if (/Total General servers/i.test(log)) {
        clearTimeout(timer);
        stdout.off('data', onData);
        setTimeout(() => resolve({ secret, urls: [`turn:${listenIp}:${listenPort}?transport=udp`], stop }), 300);
      }
    };
    stdout.on('data', onData);
    stderr.on('data', (chunk) => {
      log += chunk.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      stdout.off('data', onData);
      reject(new Error(`turnserver exited with ${code}:\n${log.slice(-2000)}`));
    });
  });
}

/**
 * Writes TURN_SECRET and TURN_URLS into `.dev.vars` (what `wrangler dev` reads as secrets), keeping every other line.
 * @param {{ secret: string, urls: string[] } | null} turn null removes both, so the page hides the loss row
 * @param {string} [dir] the tree `wrangler dev` runs in (the repository by default)
 */
export function writeTurnDevVars(turn, dir = repoRoot) {
  const file = join(dir, '.dev.vars');
  const kept = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !/^TURN_(SECRET|URLS)=/.test(line))
    : [];
  const lines = turn ? [...kept, `TURN_SECRET=${turn.secret}`, `TURN_URLS=${turn.urls.join(',')}`] : kept;
  writeFileSync(file, lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
