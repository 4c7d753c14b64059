import type { EncodeOptions } from '@speedkit/binast';
import type { Program } from 'acorn';

export interface Stats {
  format: number;
  layout: string;
  grammarEntries: number;
  stringEntries: number;
  stringBytes: number;
  streamBytes: number[];
  nodes: number;
  lazyFunctions: number;
}
export declare function stats(bytes: Uint8Array): Stats;
export declare function encodeJavaScript(source: string, options?: EncodeOptions): Uint8Array;
export declare function decodeToJavaScript(bytes: Uint8Array): string;
export declare function parseJavaScript(source: string, sourceType?: 'script' | 'module'): Program;
