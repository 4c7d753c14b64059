// `npm run deploy [-- args]` hands these arguments to `wrangler deploy`.
import { describe, expect, it } from 'vitest';
import { wranglerDeployArgs } from '../lib/deploy-args.mjs';

describe('wranglerDeployArgs', () => {
  // wrangler.toml has an [env.*] per capability, so a bare `wrangler deploy` opened the README's first deploy with
  // a yellow WARNING ("Multiple environments are defined … no target environment was specified").
  it('names the top-level environment when the user names none: `npm run deploy` deploys the all-in-one Worker', () => {
    expect(wranglerDeployArgs([], {})).toEqual(['deploy', '--env', '']);
    expect(wranglerDeployArgs(['--dry-run'], {})).toEqual(['deploy', '--dry-run', '--env', '']);
  });

  it.each([[['--env', 'images']], [['--env=binast']], [['-e', 'priority']], [['-e=speedtest']], [['--env', '']]])(
    'keeps an environment the user named: %j',
    (args) => {
      expect(wranglerDeployArgs(args, {})).toEqual(['deploy', ...args]);
    },
  );

  it('leaves the choice to CLOUDFLARE_ENV when it is set', () => {
    expect(wranglerDeployArgs([], { CLOUDFLARE_ENV: 'images' })).toEqual(['deploy']);
  });
});
