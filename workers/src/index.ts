import { middlewares } from './app';
import { fetchAsset } from './shared/asset-index';
import { compose } from './shared/middleware';

/** All-in-one Worker for `npm start`: every capability in front of the static assets. */
export default {
  fetch(request, env, ctx) {
    const serveAsset = (assetRequest: Request) => fetchAsset(env.ASSETS, assetRequest);
    return compose(middlewares, env, ctx, serveAsset)(request);
  },
} satisfies ExportedHandler<Env>;
