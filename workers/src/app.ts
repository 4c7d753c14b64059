import { binastMiddleware } from './binast/middleware';
import { binastHintMiddleware } from './binast/size-hint';
import { varnumRoute } from './binast/varnum-route';
import { imagesMiddleware } from './images/middleware';
import { priorityMiddleware } from './priority/middleware';
import type { Middleware } from './shared/middleware';
import { securityHeadersMiddleware } from './shared/security-headers';
import { speedtestRoutes } from './speedtest/route';

/**
 * The all-in-one chain, outermost first. Endpoint routes answer their own paths; content middlewares wrap what the
 * static assets (the SPA and the demo site) return. The security headers (CSP, nosniff, Referrer-Policy) wrap every
 * HTML page, so they sit outermost.
 */
export const middlewares: readonly Middleware[] = [
  securityHeadersMiddleware,
  speedtestRoutes,
  priorityMiddleware,
  imagesMiddleware,
  varnumRoute,
  binastHintMiddleware,
  binastMiddleware,
];
