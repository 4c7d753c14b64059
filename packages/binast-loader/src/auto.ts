// The classic-script build (`binast-loader.min.js`): configures itself from its own <script> tag and starts.
import { startLoader } from './loader';

// A classic script always has a currentScript while it first runs (only module scripts do not).
const { dataset, nonce, src } = document.currentScript as HTMLScriptElement;

(window as unknown as { binast: unknown }).binast = startLoader({
  // Resolved as the loader's own import() would resolve it: against its URL, or the page's when it is inlined. Left
  // relative, `new URL('binast-remember.js', decoderUrl)` would throw and the after-load module never load.
  decoderUrl: new URL(dataset.decoder ?? 'binast.js', src || document.baseURI).href,
  beaconUrl: dataset.beacon,
  nonce,
  always: 'always' in dataset,
});
