import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { binastMiddleware } from '../../src/binast/middleware';

export const binastAccept = 'application/javascript-binast, */*';
/** A real library, copied from node_modules by the build into the static assets. */
export const demoScript = '/demo/scripts/backbone-min.js';

/**
 * Calls the BinaryAST middleware in front of the static assets (or `next`), then waits for what it scheduled with
 * `ctx.waitUntil` (the background encode and R2 write), as the runtime does after a response.
 */
export async function callBinast(
  path: string,
  accept: string | null,
  vars: Record<string, string> = {},
  next: (request: Request) => Promise<Response> = (request) => env.ASSETS.fetch(request),
) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = accept === null ? {} : { accept };
  const response = await binastMiddleware(
    new Request(`http://speedkit.test${path}`, { headers }),
    { ...env, ...vars } as Env,
    ctx,
    next,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes, note: response.headers.get('x-speedkit-binast') ?? '' };
}

/** Empties the BinaryAST part of the variant store (encodings and size hints) so each test starts cold. */
export async function clearVariants() {
  for (const prefix of ['binast/', 'binast-hint/']) {
    const listed = await env.VARIANTS?.list({ prefix });
    const keys = listed?.objects.map((object) => object.key) ?? [];
    if (keys.length > 0) await env.VARIANTS?.delete(keys);
  }
}
