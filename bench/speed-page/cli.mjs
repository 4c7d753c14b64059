// Command-line arguments of `npm run speed-page -- [url] [--runs N] [--profiles desktop,mobile] [--features ...]`,
// parsed and checked without I/O so every mistake gets a sentence saying what is wrong.

import { profiles } from './profiles.mjs';
import { featureNames } from './variants.mjs';

export const usage =
  'usage: npm run speed-page -- [url] [--runs N] [--profiles desktop,mobile] [--features images,priority,binast,all] [--out dir] [--timeout S]';

/** What `--help` prints: every option with its default (docs/speed-page.md has the method). */
export const help = `${usage}

Loads one page of your site through speedkit's Workers with each feature on and off, over a shaped link, and writes
filmstrips, Speed Index and LCP per variant (needs root: it creates network namespaces).

  url                 the page, http:// or https:// (default: the demo article in bench/speed-page/site)
  --runs N            runs per variant and profile, 1-50 (default 5; claims need at least 3)
  --timeout S         seconds a load may take before it counts as failed, 10-600 (default 60; a 10 MB page on the
                      mobile profile's 1.6 Mbit/s link needs more)
  --profiles LIST     desktop, mobile or both (default desktop,mobile)
  --features LIST     images, priority, binast, all (default: all three, each alone and all together)
  --out DIR           where the report goes (default bench/results/speed-page/<site>/<time>/)
  --no-third-parties  leave other hosts (fonts, CDNs, analytics) unreachable instead of loading them through this
                      machine (default: loaded, across the shaped link)
  -h, --help          this text

The page's own absolute URLs (https://your-host/img/a.jpg) go through the same variant as the page. Requests that
fail in the runs (e.g. to third parties this machine cannot reach) are listed in a warning.`;

/** Something wrong with the command line (as opposed to the site or the machine): the usage line helps. */
export class OptionError extends Error {}

/**
 * @param {string[]} argv
 * @returns {{ url: URL | null, runs: number, timeoutS: number, profiles: string[], features: string[],
 *   outDir: string | null, thirdParties: boolean, help: boolean }}
 */
export function parseCli(argv) {
  /** @type {ReturnType<typeof parseCli>} */
  const options = {
    url: null,
    runs: 5,
    timeoutS: 60,
    profiles: ['desktop', 'mobile'],
    features: [...featureNames],
    outDir: null,
    thirdParties: true,
    help: false,
  };
  // Each name once: `--profiles mobile,mobile` ran the mobile profile twice into one table, every run number twice
  // (the report's representative run and filmstrip then picked from either pass).
  const list = (/** @type {string} */ value) => [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith('--')) throw new OptionError(`${arg} needs a value\n${usage}`);
      return next;
    };
    if (arg === '--help' || arg === '-h') {
      options.help = true;
    } else if (arg === '--runs') {
      const runs = Number(value());
      if (!Number.isInteger(runs) || runs < 1 || runs > 50)
        throw new OptionError('--runs must be a whole number from 1 to 50');
      options.runs = runs;
    } else if (arg === '--timeout') {
      const timeoutS = Number(value());
      if (!Number.isInteger(timeoutS) || timeoutS < 10 || timeoutS > 600)
        throw new OptionError('--timeout must be a whole number of seconds from 10 to 600');
      options.timeoutS = timeoutS;
    } else if (arg === '--profiles') {
      options.profiles = list(value());
      const unknown = options.profiles.filter((name) => !(name in profiles));
      if (options.profiles.length === 0)
        throw new OptionError(`--profiles needs at least one of ${Object.keys(profiles).join(', ')}`);
      if (unknown.length > 0) {
        throw new OptionError(
          `unknown profile "${unknown.join(', ')}": choose from ${Object.keys(profiles).join(', ')}`,
        );
      }
    } else if (arg === '--features') {
      options.features = list(value());
      const unknown = options.features.filter((name) => !featureNames.includes(name));
      if (unknown.length > 0)
        throw new OptionError(`unknown feature "${unknown.join(', ')}": choose from ${featureNames.join(', ')}`);
    } else if (arg === '--no-third-parties') {
      options.thirdParties = false;
    } else if (arg === '--out') {
      options.outDir = value();
    } else if (arg.startsWith('--')) {
      throw new OptionError(`unknown option ${arg}\n${usage}`);
    } else if (options.url === null) {
      // "localhost:3000" and "example.com:8080/blog" parse as URLs of scheme "localhost:" / "example.com:".
      if (/^[a-z0-9.-]+:\d+(\/|$)/i.test(arg)) {
        throw new OptionError(`"${arg}" has no scheme: give the page's full address, e.g. http://${arg}`);
      }
      let url;
      try {
        url = new URL(arg);
      } catch {
        throw new OptionError(`"${arg}" is not a URL: give the page's full address, e.g. http://127.0.0.1:3000/`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new OptionError(`only http:// and https:// pages can be tested, not ${url.protocol}`);
      }
      options.url = url;
    } else {
      throw new OptionError(`one URL at a time (got "${options.url.href}" and "${arg}")\n${usage}`);
    }
  }
  return options;
}
