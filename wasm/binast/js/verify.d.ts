import type { Program } from 'acorn';

export declare function verifyEncoding(
  program: Program,
  sourceType: 'script' | 'module',
  bytes: Uint8Array,
  decode: (bytes: Uint8Array) => string,
): void;
