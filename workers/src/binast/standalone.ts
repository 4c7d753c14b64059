import { compose } from '../shared/middleware';
import { originFetch } from '../shared/origin-fetch';
import { binastMiddleware } from './middleware';
import { binastRewriteMiddleware } from './rewrite-html';
import { binastHintMiddleware } from './size-hint';

/**
 * `npm run deploy -- --env binast`: BinaryAST alone on a site owner's zone. Every request goes to the origin
 * (`fetch(request)`); `.js` responses come back as BinaryAST to clients that send
 * `Accept: application/javascript-binast` once an encoding is stored. With `BINAST_REWRITE_LOADER` set, pages are
 * also marked up for the loader (rewrite-html.ts).
 */
export default {
  fetch(request, env, ctx) {
    const middlewares = [binastHintMiddleware, binastRewriteMiddleware, binastMiddleware];
    return compose(middlewares, env, ctx, originFetch('binast'))(request);
  },
} satisfies ExportedHandler<Env>;
