export { generatedBody, handleDown } from './down';
export { maxDownloadBytes, maxUploadBytes, serverTiming } from './limits';
export { type ConnectionMeta, connectionMeta, handleMeta } from './meta';
export { parseBytesParam } from './params';
export { speedtestRoutes } from './route';
export { countBody, handleUp, type UploadReceipt } from './up';
