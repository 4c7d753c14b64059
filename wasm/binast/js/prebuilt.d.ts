import type { Layout } from './encode-javascript';

/** The JSON line of a prebuilt file (see prebuilt.js for the layout of the file). */
export interface PrebuiltHeader {
  /** SHA-256 (hex) of the JavaScript bytes the encoding was made from. */
  readonly source: string;
  readonly sourceBytes: number;
  /** SHA-256 (hex) of the encoding that follows the header. */
  readonly encoding: string;
  readonly encodingBytes: number;
  readonly layout: Layout;
  /** The layout's wire format number (`layoutFormats`). */
  readonly format: number;
  readonly lazyLevel: number;
}

export type PrebuiltRead =
  | { readonly ok: true; readonly header: PrebuiltHeader; readonly encoding: Uint8Array }
  | { readonly ok: false; readonly reason: string };

export declare const prebuiltSuffix: '.binast';
export declare const maxHeaderBytes: number;
export declare function sha256OfBytes(bytes: Uint8Array): Promise<string>;
export declare function writePrebuilt(
  sourceBytes: Uint8Array,
  encoding: Uint8Array,
  settings: { layout: Layout; lazyLevel: number },
): Promise<Uint8Array>;
export declare function isPrebuiltFile(file: Uint8Array): boolean;
export declare function readPrebuilt(file: Uint8Array): Promise<PrebuiltRead>;
