import { compose } from '../shared/middleware';
import { originFetch } from '../shared/origin-fetch';
import { priorityMiddleware } from './middleware';

/**
 * `wrangler deploy --env priority`: the priority capability alone on a site owner's zone. Every request goes to the
 * origin (`fetch(request)`); image responses come back with priority headers for Cloudflare's HTTP/2 scheduler.
 */
export default {
  fetch(request, env, ctx) {
    return compose([priorityMiddleware], env, ctx, originFetch('priority'))(request);
  },
} satisfies ExportedHandler<Env>;
