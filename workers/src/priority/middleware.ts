import type { Middleware } from '../shared/middleware';
import { LayoutCache } from './cache';
import { type PriorityConfig, readPriorityConfig } from './config';
import { prioritise } from './handler';

let memo: { env: Env; config: PriorityConfig; cache: LayoutCache } | undefined;

/** Config and offset cache, built once per isolate (env is the same object for every request of an isolate). */
function setupFor(env: Env): { config: PriorityConfig; cache: LayoutCache } {
  if (memo?.env === env) return memo;
  const { config, problems } = readPriorityConfig(env as unknown as Record<string, unknown>);
  for (const problem of problems) console.warn(`priority: ${problem}`);
  const cache =
    memo && memo.config.cacheEntries === config.cacheEntries ? memo.cache : new LayoutCache(config.cacheEntries);
  memo = { env, config, cache };
  return memo;
}

/**
 * Priority headers for images: wraps whatever `next` returns (assets, the images capability, or the origin) and
 * annotates image responses; everything else, and anything in doubt, passes through unchanged.
 */
export const priorityMiddleware: Middleware = async (request, env, _ctx, next) => {
  const response = await next(request);
  const { config, cache } = setupFor(env);
  try {
    const result = await prioritise(request, response, config, cache);
    if (result.outcome.kind === 'unusable')
      console.log(`priority: passed ${request.url} through: ${result.outcome.reason}`);
    return result.response;
  } catch (error) {
    // Reached only before the body was touched (readAhead never rejects, even when the origin's body fails): the
    // original is intact.
    console.error(`priority: passed ${request.url} through after an error`, error);
    return response;
  }
};
