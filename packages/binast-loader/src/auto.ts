// The classic-script build (`binast-loader.min.js`): configures itself from its own <script> tag and starts.
import { startLoader } from './loader';

// A classic script always has a currentScript while it first runs (only module scripts do not).
const { dataset, nonce, src } = document.currentScript as HTMLScriptElement;

(window as unknown as { binast: unknown }).binast = startLoader({
  decoderUrl: dataset.decoder ?? new URL('binast.js', src).href,
  beaconUrl: dataset.beacon,
  nonce,
  always: 'always' in dataset,
});
