// Encoding a URL-API variant: through the isolate's transform gate, and once per variant at a time.
import type { ImagesConfig } from '../core/config';
import type { TargetFormat } from '../core/formats';
import type { ResizePlan } from '../core/resize-plan';
import type { UrlOptions } from '../core/url-options';
import type { EncoderRung } from '../core/work-budget';
import { type CheckedSource, transformImage } from './transform';
import { transformGate } from './transform-gate';
import { ensureCodecs } from './wasm-modules';

/** What to encode: the output geometry, its format and the encoder setting the work budget chose. */
export interface EncodeJob {
  readonly plan: ResizePlan;
  readonly target: TargetFormat;
  readonly rung: EncoderRung;
}

/** Encodes running in this isolate by variant key (the key names the source bytes, options and format). */
const encoding = new Map<string, Promise<Uint8Array | null>>();

const stillWaiting = Symbol('still waiting');

/**
 * One encode per variant key at a time: a request arriving while the same variant is being encoded (one image twice
 * on a page) shares that result instead of queueing for a slot of its own, or being refused one, to encode it again.
 * It waits for it at most `waitMs`, then encodes on its own: the encode belongs to the request that started it, and if
 * that client goes away the runtime cancels it, so the shared result would never come.
 */
export async function encodeOnce(
  key: string,
  encode: () => Promise<Uint8Array | null>,
  waitMs: number,
): Promise<Uint8Array | null> {
  const running = encoding.get(key);
  if (running) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<typeof stillWaiting>((resolve) => {
      timer = setTimeout(() => resolve(stillWaiting), waitMs);
    });
    const shared = await Promise.race([running, timeout]);
    clearTimeout(timer);
    if (shared !== stillWaiting) return shared;
  }
  const started = encode().finally(() => {
    if (encoding.get(key) === started) encoding.delete(key);
  });
  encoding.set(key, started);
  return started;
}

/** Encodes once a transform slot is free; null when none freed up within `queueWaitMs`. */
export async function encodeThroughGate(
  source: CheckedSource,
  { plan, target, rung }: EncodeJob,
  options: UrlOptions,
  config: ImagesConfig,
): Promise<Uint8Array | null> {
  const gate = transformGate({
    maxConcurrent: config.maxConcurrentTransforms,
    maxQueued: config.maxQueuedTransforms,
  });
  const release = await gate.acquire(config.queueWaitMs);
  if (!release) return null;
  try {
    await ensureCodecs();
    return await transformImage(
      source,
      plan,
      target,
      options.quality,
      rung.setting,
      source.profile,
      options.background,
    );
  } finally {
    release();
  }
}
