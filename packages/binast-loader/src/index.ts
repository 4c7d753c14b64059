// ESM entry for bundlers: nothing starts on import; call startLoader() with the decoder's URL.
export { type BinastLoader, type LoaderOptions, startLoader } from './loader';
export { binastAccept, binastMediaType, isBinastContentType } from './media-type';
export {
  binastFetchPath,
  binastQuery,
  type Choice,
  type CostInput,
  type Decision,
  decide,
  decoderCookie,
  isLoaderSrc,
  linkCookie,
  loaderTagPlacement,
  mayWin,
  mergePlainKeys,
  nativeScriptRule,
  plainCookie,
  preloadsBinast,
  ranPlainBefore,
  readDecoderCookie,
  readPlainCookie,
  readVisitor,
  runsAsJavaScript,
  scriptKey,
  shouldPreload,
  type Visitor,
  visitorHint,
} from './model';
export { type ExecutionMode, planScript, type ScriptPlan } from './plan';
export type { FallbackReason, ScriptRecord } from './record';
export { createScheduler } from './scheduler';
