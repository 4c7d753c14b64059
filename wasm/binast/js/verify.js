// The check every stored or prebuilt encoding passes: decoded, the JavaScript it regenerates parses to the same
// program as the source (positions and literal spelling aside). An encoder or regeneration bug then costs a cache
// miss, never a broken page.
import { firstDifference } from './ast-equal.js';
import { parseJavaScript } from './encode-javascript.js';

/**
 * Throws unless `bytes` decodes (with `decode`, which the caller wraps as its runtime needs) to JavaScript that
 * parses to `program`.
 * @param {import('acorn').Program} program
 * @param {'script' | 'module'} sourceType
 * @param {Uint8Array} bytes
 * @param {(bytes: Uint8Array) => string} decode
 */
export function verifyEncoding(program, sourceType, bytes, decode) {
  const regenerated = decode(bytes);
  let reparsed;
  try {
    reparsed = parseJavaScript(regenerated, sourceType);
  } catch (error) {
    throw new Error(`encoding regenerates JavaScript that does not parse: ${String(error)}`);
  }
  const difference = firstDifference(program, reparsed);
  if (difference !== null) throw new Error(`encoding regenerates a different program, first at ${difference}`);
}
