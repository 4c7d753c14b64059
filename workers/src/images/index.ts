export { explicitQuality, type MediaRange, parseAccept } from '../shared/accept';
export { defaultConfig, type ImagesConfig, readConfig } from './config';
export { type ImageHeader, readImageHeader } from './header';
export { imagesMiddleware } from './middleware';
export { acceptableFormats, chooseFormat } from './negotiate';
export { parseOptions, type UrlOptions } from './options';
export { planResize, type ResizePlan } from './plan';
