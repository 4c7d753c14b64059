import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { recentFailures } from '../../src/images/edge/recent-failures';
import { imagesMiddleware } from '../../src/images/middleware';
import { readImageHeader } from '../../src/shared/image-header/whole-file';

export const chromiumAccept = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

/** The generated demo images, served by the real static-asset binding. */
const asset = (path: string) => env.ASSETS.fetch(`http://assets.test/demo/images/${path}`);
export const assetBytes = async (path: string) => new Uint8Array(await (await asset(path)).arrayBuffer());

/**
 * Calls the image middleware in front of the static assets with extra vars, then waits for everything it scheduled
 * with `ctx.waitUntil` (background encodes, R2 writes), like the runtime does after a response.
 */
export async function callImages(
  path: string,
  init: RequestInit = {},
  vars: Record<string, string> = {},
  next: (request: Request) => Promise<Response> = (request) => env.ASSETS.fetch(request),
) {
  const ctx = createExecutionContext();
  const response = await imagesMiddleware(
    new Request(`http://speedkit.test${path}`, init),
    { ...env, ...vars } as Env,
    ctx,
    next,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes, header: readImageHeader(bytes), note: response.headers.get('x-speedkit-image') ?? '' };
}

/** Empties the variant store and forgets the isolate's recent transform failures: each test starts as on a fresh deploy. */
export async function clearVariants() {
  recentFailures.clear();
  const listed = await env.VARIANTS?.list({ prefix: 'images/' });
  const keys = listed?.objects.map((object) => object.key) ?? [];
  if (keys.length > 0) await env.VARIANTS?.delete(keys);
}
