import { compose } from '../shared/middleware';
import { originFetch } from '../shared/origin-fetch';
import { speedtestRoutes } from './route';

/**
 * `wrangler deploy --env speedtest`: only the measurement endpoints, on a route of the owner's zone. Every other
 * path passes through to the origin untouched.
 */
export default {
  fetch(request, env, ctx) {
    return compose([speedtestRoutes], env, ctx, originFetch('speedtest'))(request);
  },
} satisfies ExportedHandler<Env>;
