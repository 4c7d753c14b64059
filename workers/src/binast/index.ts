export { acceptsBinast, binastMediaType } from './accept';
export { decodeScript, encodeScript, encodeVerified, ensureBinastWasm, withBinastWasm } from './codec';
export { type BinastConfig, defaultConfig, readConfig } from './config';
export { binastMiddleware } from './middleware';
export { varnumRoute } from './varnum-route';
