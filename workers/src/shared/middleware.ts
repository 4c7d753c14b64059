/**
 * Where a capability gets the response it would otherwise have served: the static assets in the all-in-one
 * Worker, the site owner's origin (`fetch(request)`) when a capability is deployed on its own.
 */
export type Next = (request: Request) => Promise<Response>;

/**
 * One capability in the chain. It either answers the request itself, or calls `next` and may transform what comes
 * back. Content middlewares must pass `next`'s response through untouched whenever they are in doubt.
 */
export type Middleware = (request: Request, env: Env, ctx: ExecutionContext, next: Next) => Promise<Response>;

/** Chains middlewares so the first one listed sees the request first and the response last. */
export function compose(middlewares: readonly Middleware[], env: Env, ctx: ExecutionContext, origin: Next): Next {
  return middlewares.reduceRight<Next>((next, middleware) => (request) => middleware(request, env, ctx, next), origin);
}
