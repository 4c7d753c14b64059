// A local TURN server (coturn) for the speed test's packet-loss phase: started by `npm start` and by the e2e/smoke
// runs when /usr/bin/turnserver is present. It relays on loopback only; the secret is made per run.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './tools.mjs';

export const turnserverBinary = '/usr/bin/turnserver';

/**
 * Starts turnserver on 127.0.0.1 with `use-auth-secret` (TURN REST API credentials) and a few relay ports.
 * Resolves once it listens; the caller stops it with `.stop()`.
 * @param {{ listenPort?: number, minRelayPort?: number, relayPorts?: number, secret?: string }} [options]
 * @returns {Promise<{ secret: string, urls: string[], stop: () => void }>}
 */
export function startTurnServer(options = {}) {
  const listenPort = options.listenPort ?? Number(process.env.TURN_PORT ?? 3478);
  const minRelayPort = options.minRelayPort ?? listenPort + 20000;
  const maxRelayPort = minRelayPort + (options.relayPorts ?? 16) - 1;
  const secret = options.secret ?? randomBytes(24).toString('base64url');
  const args = [
    '-n', // no config file: everything is on this command line
    `--listening-ip=127.0.0.1`,
    `--listening-port=${listenPort}`,
    `--relay-ip=127.0.0.1`,
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
  const child = spawn(turnserverBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`turnserver did not start listening within 10 s:\n${log.slice(-2000)}`));
    }, 10_000);
    const onData = (/** @type {Buffer} */ chunk) => {
      log += chunk.toString();
      // coturn logs one line per listener it opened; the UDP one on our port means it is ready.
      if (/listener opened on\s*:?\s*127\.0\.0\.1:\d+/i.test(log) || /Total General servers/i.test(log)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve({ secret, urls: [`turn:127.0.0.1:${listenPort}?transport=udp`], stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => {
      log += chunk.toString();
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`turnserver exited with ${code}:\n${log.slice(-2000)}`));
    });
  });
}

/**
 * Writes TURN_SECRET and TURN_URLS into `.dev.vars` (what `wrangler dev` reads as secrets), keeping every other line.
 * @param {{ secret: string, urls: string[] } | null} turn null removes both, so the page hides the loss row
 */
export function writeTurnDevVars(turn) {
  const file = join(repoRoot, '.dev.vars');
  const kept = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !/^TURN_(SECRET|URLS)=/.test(line))
    : [];
  const lines = turn ? [...kept, `TURN_SECRET=${turn.secret}`, `TURN_URLS=${turn.urls.join(',')}`] : kept;
  writeFileSync(file, lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
