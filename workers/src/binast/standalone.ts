import { compose } from '../shared/middleware';
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
    return compose([binastHintMiddleware, binastRewriteMiddleware, binastMiddleware], env, ctx, (originRequest) =>
      fetch(originRequest),
    )(request);
  },
} satisfies ExportedHandler<Env>;
