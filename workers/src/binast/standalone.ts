import { compose } from '../shared/middleware';
import { binastMiddleware } from './middleware';

/**
 * `npm run deploy -- --env binast`: BinaryAST alone on a site owner's zone. Every request goes to the origin
 * (`fetch(request)`); `.js` responses come back as BinaryAST to clients that send
 * `Accept: application/javascript-binast` once an encoding is stored.
 */
export default {
  fetch(request, env, ctx) {
    return compose([binastMiddleware], env, ctx, (originRequest) => fetch(originRequest))(request);
  },
} satisfies ExportedHandler<Env>;
