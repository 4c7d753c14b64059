// How the loader runs a script it decoded: from a `blob:` URL (blob-script.ts) or as inline text (inline.ts). Its own
// file so that bench:binast (bench/binast/main-thread.mjs) reports the main-thread cost of the way the loader takes.

/**
 * Smallest decoded script (UTF-8 bytes) run from a `blob:` URL rather than inline. Loading a `blob:` script costs the
 * main thread a few ms of its own, which only pays once the source is large enough that handing it over as a string
 * and parsing it inline cost more. In two bench:binast runs (2026-11-25, medians of 9 runs, ms added to the plain
 * script's cost) inline was as cheap or cheaper for react, underscore and backbone (18–26 KB), mixed for fuzzball
 * (47 KB), and the Blob as cheap or cheaper from lodash (73 KB) on: 4–13 ms less for angular, d3 and react-dom.
 */
export const blobMinBytes = 64 * 1024;

/**
 * Whether a decoded script of `bytes` UTF-8 bytes runs from a `blob:` URL. Modules always run inline: from a `blob:`
 * URL, their relative imports and `import.meta.url` would resolve against it.
 */
export const runsFromBlob = (bytes: number, module: boolean) => !module && bytes >= blobMinBytes;
