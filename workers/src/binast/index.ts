export { decodeScript, encodeScript, encodeVerified, ensureBinastWasm, withBinastWasm } from './codec';
export { type BinastConfig, defaultConfig, readConfig } from './config';
export { binastMediaType, binastMiddleware } from './middleware';
export { varnumRoute } from './varnum-route';
