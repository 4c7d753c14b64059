export { LayoutCache } from './cache';
export { defaultPriorityConfig, type PriorityConfig, readPriorityConfig } from './config';
export { priorityHeaders } from './emit';
export { type PriorityOutcome, prioritise } from './handler';
export { defaultGoodImageRule, type GoodImageRule, JpegScanner } from './jpeg';
export type { ImageFormat, ImageLayout, ImageScanner, ScanResult } from './layout';
export { priorityMiddleware } from './middleware';
export { AnyImageScanner, scanImage } from './scanner';
