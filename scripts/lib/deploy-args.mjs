// The arguments `npm run deploy [-- args]` gives `wrangler deploy`.

/**
 * `deploy` plus the user's arguments, naming the top-level environment (`--env ""`, the all-in-one Worker) when the
 * user named none: wrangler.toml has an [env.*] per capability, and without a target wrangler warns that several
 * environments exist. An `--env`/`-e` of the user's, or `CLOUDFLARE_ENV`, is left as it is.
 * @param {string[]} userArgs
 * @param {NodeJS.ProcessEnv} env
 * @returns {string[]}
 */
export function wranglerDeployArgs(userArgs, env) {
  const namesEnvironment = userArgs.some((arg) => /^(--env|-e)(=|$)/.test(arg));
  if (namesEnvironment || env.CLOUDFLARE_ENV !== undefined) return ['deploy', ...userArgs];
  return ['deploy', ...userArgs, '--env', ''];
}
