import type { Layout } from '@speedkit/binast';
import { integerIn, oneOf, type Vars, varReader } from '../shared/vars';

export type PrebuiltMode = 'verify' | 'trust' | 'off';

/** Deployment settings of the BinaryAST Worker, from `BINAST_*` vars. */
export interface BinastConfig {
  /** Which container layout to store and serve. */
  readonly layout: Layout;
  /** Function nesting depth encoded lazily (skip lengths), 0-3. */
  readonly lazyLevel: number;
  /** Larger scripts are served as-is: acorn's tree costs ~40-60 bytes of heap per source byte and an isolate has 128 MB. */
  readonly maxSourceBytes: number;
  /**
   * On a miss, a `<script>.binast` beside the script (`binast prebuild`, made for these exact bytes) is stored
   * instead of encoding here. `verify`: only after the same tree check as this Worker's own encodings (it saves the
   * encode; scripts up to `maxSourceBytes`); `trust`: on its SHA-256s alone (the build checked the tree; nothing is
   * parsed here, scripts up to `maxPrebuiltBytes`); `off`: always encode here.
   */
  readonly prebuilt: PrebuiltMode;
  /** Largest script served from a trusted prebuilt file: only it and its encoding are read and hashed. */
  readonly maxPrebuiltBytes: number;
}

export const defaultConfig: BinastConfig = {
  // The context layout is smaller than brotli of the minified source (bench/binast), and it is the only one the
  // loader's decode-only build reads.
  layout: 'context',
  // Our loader regenerates the whole script, so skip lengths would only add bytes; engines that parse lazily
  // would set 1.
  lazyLevel: 0,
  maxSourceBytes: 1024 * 1024,
  prebuilt: 'verify',
  maxPrebuiltBytes: 16 * 1024 * 1024,
};

/** Reads `BINAST_*` vars; a missing or invalid one takes its default (invalid ones are logged). */
export function readConfig(env: Vars): BinastConfig {
  const read = varReader(env, ({ name, raw, fallback }) =>
    console.warn(`binast: ${name}=${String(raw)} is invalid, using ${String(fallback)}`),
  );
  return {
    layout: read('BINAST_LAYOUT', oneOf<Layout>(['multipart', 'optimised', 'context']), defaultConfig.layout),
    lazyLevel: read('BINAST_LAZY_LEVEL', integerIn(0, 3), defaultConfig.lazyLevel),
    maxSourceBytes: read('BINAST_MAX_SOURCE_BYTES', integerIn(1, 64 * 1024 * 1024), defaultConfig.maxSourceBytes),
    prebuilt: read('BINAST_PREBUILT', oneOf<PrebuiltMode>(['verify', 'trust', 'off']), defaultConfig.prebuilt),
    maxPrebuiltBytes: read('BINAST_MAX_PREBUILT_BYTES', integerIn(1, 64 * 1024 * 1024), defaultConfig.maxPrebuiltBytes),
  };
}
