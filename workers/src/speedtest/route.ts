import { jsonError } from '../shared/json';
import type { Middleware } from '../shared/middleware';
import { handleDown } from './down';
import { preflight } from './limits';
import { handleMeta } from './meta';
import { handleTurnCreds } from './turn-creds';
import { handleUp } from './up';
import { handleUpWs } from './up-ws';

type Handler = (request: Request, env: Record<string, unknown>) => Response | Promise<Response>;

/** Each endpoint: the one method it answers, and its handler. */
const endpoints: Record<string, { method: string; handle: Handler }> = {
  '/__down': { method: 'GET', handle: handleDown },
  '/__up': { method: 'POST', handle: handleUp },
  '/__up-ws': { method: 'GET', handle: handleUpWs },
  '/meta': { method: 'GET', handle: handleMeta },
  '/turn-creds': { method: 'GET', handle: handleTurnCreds },
};

/** Methods an endpoint answers: HEAD wherever GET is answered (RFC 9110 §9.3.2: same headers, no body). */
const methodsOf = (method: string) => (method === 'GET' ? ['GET', 'HEAD'] : [method]);

// JSON answers (/meta, errors) are small; their length is measured. /__down states its own length up front.
const maxMeasuredHeadBytes = 64 * 1024;

/** The GET answer's status and headers, Content-Length included, without its body. */
async function headOf(response: Response): Promise<Response> {
  const headers = new Headers(response.headers);
  if (!headers.has('content-length') && response.body) {
    const bytes = await response.arrayBuffer();
    if (bytes.byteLength <= maxMeasuredHeadBytes) headers.set('content-length', String(bytes.byteLength));
  } else {
    await response.body?.cancel();
  }
  return new Response(null, { status: response.status, statusText: response.statusText, headers });
}

/** The speed-test endpoints (`/__down`, `/__up`, `/meta`, `/turn-creds`); every other path goes to `next`. */
export const speedtestRoutes: Middleware = async (request, env, _ctx, next) => {
  const endpoint = endpoints[new URL(request.url).pathname];
  if (!endpoint) return next(request);
  const methods = methodsOf(endpoint.method);
  if (request.method === 'OPTIONS') return preflight(methods.join(', '));
  if (!methods.includes(request.method)) {
    return jsonError(
      405,
      `use ${methods.join(' or ')}`,
      { method: request.method },
      {
        // A 405 is cacheable by default (RFC 9110 §15.5.6): no cache may keep it for the URL's real method.
        headers: {
          allow: `${methods.join(', ')}, OPTIONS`,
          'access-control-allow-origin': '*',
          'cache-control': 'no-store',
        },
      },
    );
  }
  // Env as a plain record: TURN_* are optional secrets that the generated Env type only knows when they are set.
  const vars = env as unknown as Record<string, unknown>;
  if (request.method === 'HEAD') return headOf(await endpoint.handle(request, vars));
  return endpoint.handle(request, vars);
};
