import { binastMiddleware } from './binast/middleware';
import { varnumRoute } from './binast/varnum-route';
import { imagesMiddleware } from './images/middleware';
import { priorityMiddleware } from './priority/middleware';
import type { Middleware } from './shared/middleware';
import { speedtestRoutes } from './speedtest/route';

/**
 * The all-in-one chain, outermost first. Endpoint routes answer their own paths; content middlewares wrap what the
 * static assets (the SPA and the demo site) return.
 */
export const middlewares: readonly Middleware[] = [
  speedtestRoutes,
  priorityMiddleware,
  imagesMiddleware,
  varnumRoute,
  binastMiddleware,
];
