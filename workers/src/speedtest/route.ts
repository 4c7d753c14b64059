import { jsonError } from '../shared/json';
import type { Middleware } from '../shared/middleware';
import { handleDown } from './down';
import { preflight } from './limits';
import { handleMeta } from './meta';
import { handleUp } from './up';

type Handler = (request: Request) => Response | Promise<Response>;

/** Each endpoint: the one method it answers, and its handler. */
const endpoints: Record<string, { method: string; handle: Handler }> = {
  '/__down': { method: 'GET', handle: handleDown },
  '/__up': { method: 'POST', handle: handleUp },
  '/meta': { method: 'GET', handle: handleMeta },
};

/** The speed-test endpoints (`/__down`, `/__up`, `/meta`); every other path goes to `next`. */
export const speedtestRoutes: Middleware = async (request, _env, _ctx, next) => {
  const endpoint = endpoints[new URL(request.url).pathname];
  if (!endpoint) return next(request);
  if (request.method === 'OPTIONS') return preflight(endpoint.method);
  if (request.method !== endpoint.method) {
    return jsonError(
      405,
      `use ${endpoint.method}`,
      { method: request.method },
      {
        headers: { allow: `${endpoint.method}, OPTIONS`, 'access-control-allow-origin': '*' },
      },
    );
  }
  return endpoint.handle(request);
};
