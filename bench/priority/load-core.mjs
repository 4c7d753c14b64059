// Loads the Worker's pure priority core (TypeScript) into Node, so the benchmarks and the lab measure exactly the code
// the Worker runs.
import { fileURLToPath } from 'node:url';
import { importWorkerCode } from '../lib/import-worker-code.mjs';

const src = fileURLToPath(new URL('../../workers/src/priority', import.meta.url));

/**
 * @typedef {object} PriorityCore
 * @property {typeof import('../../workers/src/priority/scanner').AnyImageScanner} AnyImageScanner
 * @property {typeof import('../../workers/src/priority/scanner').scanImage} scanImage
 * @property {typeof import('../../workers/src/priority/prefix').readAhead} readAhead
 * @property {typeof import('../../workers/src/priority/emit').priorityHeaders} priorityHeaders
 * @property {typeof import('../../workers/src/priority/config').defaultPriorityConfig} defaultPriorityConfig
 */

/** @returns {Promise<PriorityCore>} */
export function loadPriorityCore() {
  return importWorkerCode(
    [
      "export { AnyImageScanner, scanImage } from './scanner';",
      "export { readAhead } from './prefix';",
      "export { priorityHeaders } from './emit';",
      "export { defaultPriorityConfig } from './config';",
    ],
    src,
  );
}
