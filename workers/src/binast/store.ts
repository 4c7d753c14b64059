import { layoutFormats } from '@speedkit/binast';
import { sha256Hex } from '../shared/sha256';
import type { BinastConfig } from './config';

/**
 * The part of every R2 key that names what the bytes are: layout, its wire format number and lazy level, so
 * changing a setting, or deploying a decoder for a new version of the layout (format 3 → 4), never serves or reads
 * an encoding made for another (`context-f7-lazy0`).
 */
export const variantPrefix = (config: BinastConfig) =>
  `${config.layout}-f${layoutFormats[config.layout]}-lazy${config.lazyLevel}`;

/**
 * Where an encoding lives in R2: identity of the source (its ETag plus host and path, because unrelated files can
 * share an mtime-based ETag, on one site or on two sites behind one deployment, or a hash of the body when there is no
 * ETag or the ETag's encoding was made from other bytes) under the variant's prefix. The query is left out: every
 * encoding is checked against the bytes it is served for (middleware.ts).
 */
export async function variantKey(location: string, identity: string, config: BinastConfig): Promise<string> {
  return `binast/${variantPrefix(config)}/${await sha256Hex(`${location}\n${identity}`)}`;
}

/** Marks a source the encoder rejected, so later requests do not parse it again. */
export const failureKey = (key: string) => `${key}.failed`;

/**
 * Marks an encode under way (R2 metadata: when it started, how many tries so far). It is deleted when the encode
 * settles; one left behind means the isolate died mid-encode (its memory or CPU limit), which no catch sees.
 */
export const attemptKey = (key: string) => `${key}.encoding`;
