// Loads the Worker's pure priority core (TypeScript) into Node, so the benchmarks and the lab measure exactly the code
// the Worker runs.
import { fileURLToPath } from 'node:url';
import { importWorkerCode } from '../lib/import-worker-code.mjs';

const src = fileURLToPath(new URL('../../workers/src/priority', import.meta.url));

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
