// Node's count of an EventTarget's listeners, in plain JavaScript so the package's TypeScript stays free of Node's
// types (listeners.d.mts types it).
import { getEventListeners } from 'node:events';

export const listenerCount = (target, type) => getEventListeners(target, type).length;
