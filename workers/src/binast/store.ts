import { sha256Hex } from '../shared/sha256';
import type { BinastConfig } from './config';

/**
 * Where an encoding lives in R2: identity of the source (its ETag plus path, because unrelated files can share an
 * mtime-based ETag, or a hash of the body when there is no ETag), then layout and lazy level, so changing either
 * setting never serves a stale variant.
 */
export async function variantKey(path: string, identity: string, config: BinastConfig): Promise<string> {
  return `binast/${config.layout}-lazy${config.lazyLevel}/${await sha256Hex(`${path}\n${identity}`)}`;
}

/** Marks a source the encoder rejected, so later requests do not parse it again. */
export const failureKey = (key: string) => `${key}.failed`;
