import {
  isStartOfFrame,
  JpegMarkerWalker,
  type JpegSegment,
  type JpegVisit,
} from '../shared/image-header/jpeg-markers';
import { defaultGoodImageRule, type GoodImageRule, ProgressTracker, type ScanParameters } from './jpeg-progress';
import { type ImageLayout, type ImageScanner, invalid, more, type ScanResult } from './layout';

// Real encoders write 1 (baseline) to ~12 scans (libjpeg's progressive script) and a few dozen marker segments;
// thousands of either are an attack on whoever decodes the file. The scanner gives up (the image is passed through
// without priority headers, the reason logged) instead of walking them all.
export const maxJpegScans = 100;
export const maxJpegMarkers = 1000;

/** SOF markers that start a progressive frame (DCT progressive, Huffman or arithmetic, differential or not). */
const isProgressiveSof = (code: number) => code === 0xc2 || code === 0xc6 || code === 0xca || code === 0xce;

export { defaultGoodImageRule, type GoodImageRule };

/**
 * Streams a JPEG through the shared marker walk (shared/image-header/jpeg-markers.ts), reading the frame header and
 * each scan's parameters; tables that follow a scan (DHT between scans) belong to the next scan. Stops at the first
 * scan of a baseline JPEG, and at the "good" point of a progressive one (at its preview's end with `stopAtPreview`).
 */
export class JpegScanner implements ImageScanner {
  readonly #walker = new JpegMarkerWalker(
    {
      keep: (marker) => isStartOfFrame(marker) || marker === 0xda,
      segment: (segment) => this.#segment(segment),
      scanEnded: (endBytes) => this.#scanEnded(endBytes),
    },
    { maxMarkers: maxJpegMarkers, maxScans: maxJpegScans },
  );
  #result: ScanResult = more;
  #width = 0;
  #height = 0;
  #progressive = false;
  #componentIds: number[] = [];
  #headerEnd = 0;
  #progress: ProgressTracker | undefined;
  /** The scan being read, applied when it ends. */
  #scan: ScanParameters | undefined;

  constructor(
    private readonly good: GoodImageRule = defaultGoodImageRule,
    private readonly stopAtPreview = false,
  ) {}

  push(chunk: Uint8Array): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    const status = this.#walker.push(chunk);
    if (status.kind === 'invalid') this.#result = invalid(status.reason);
    else if (status.kind === 'ended') this.#result = this.#headerEnd > 0 ? this.#complete() : beforeFirstScan;
    return this.#result;
  }

  finish(): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    // A truncated body still gives a useful answer once the header is known.
    if (this.#headerEnd > 0) return this.#complete();
    return beforeFirstScan;
  }

  #segment({ marker, payload, endBytes }: JpegSegment): JpegVisit {
    if (!payload) return 'continue';
    if (isStartOfFrame(marker)) return this.#readFrame(marker, payload);
    return this.#readScan(payload, endBytes);
  }

  /** Applies the scan that just ended; once the good point (or the wanted preview) is known nothing more is needed. */
  #scanEnded(endBytes: number): JpegVisit {
    const scan = this.#scan;
    this.#scan = undefined;
    if (!scan || !this.#progress) return 'continue';
    this.#progress.scanEnded(scan, endBytes);
    if (
      this.stopAtPreview &&
      this.#progress.previewEndBytes !== undefined &&
      this.#progress.goodEndBytes === undefined
    ) {
      this.#result = { kind: 'done', layout: { ...this.#layout(), previewOnly: true } };
      return 'stop';
    }
    if (this.#progress.goodEndBytes === undefined) return 'continue';
    this.#result = this.#complete();
    return 'stop';
  }

  #readFrame(marker: number, p: Uint8Array): JpegVisit {
    if (this.#componentIds.length > 0) return { invalid: 'more than one SOF marker' };
    const count = p[5] ?? 0;
    if (p.length < 6 + 3 * count || count < 1 || count > 4) return { invalid: 'malformed SOF segment' };
    this.#height = ((p[1] as number) << 8) | (p[2] as number);
    this.#width = ((p[3] as number) << 8) | (p[4] as number);
    if (this.#width === 0 || this.#height === 0) return { invalid: 'JPEG without dimensions in SOF (DNL)' };
    for (let c = 0; c < count; c++) this.#componentIds.push(p[6 + 3 * c] as number);
    this.#progressive = isProgressiveSof(marker);
    if (this.#progressive) this.#progress = new ProgressTracker(this.#componentIds, this.good);
    return 'continue';
  }

  #readScan(p: Uint8Array, endBytes: number): JpegVisit {
    const count = p[0] ?? 0;
    if (this.#componentIds.length === 0) return { invalid: 'SOS before SOF' };
    if (count < 1 || count > 4 || p.length < 4 + 2 * count) return { invalid: 'malformed SOS segment' };
    const ids: number[] = [];
    for (let c = 0; c < count; c++) {
      const id = p[1 + 2 * c] as number;
      if (!this.#componentIds.includes(id)) return { invalid: `SOS names unknown component ${id}` };
      ids.push(id);
    }
    const ss = p[1 + 2 * count] as number;
    const se = p[2 + 2 * count] as number;
    const approximation = p[3 + 2 * count] as number;
    if (this.#headerEnd === 0) this.#headerEnd = endBytes;
    if (!this.#progressive) {
      this.#result = this.#complete(); // baseline: only the header matters
      return 'stop';
    }
    if (ss > se || se > 63 || (ss === 0 && se !== 0)) return { invalid: `bad spectral range ${ss}..${se}` };
    this.#scan = { ids, ss, se, ah: approximation >> 4, al: approximation & 15 };
    return 'continue';
  }

  #complete(): ScanResult {
    return { kind: 'done', layout: this.#layout() };
  }

  #layout(): ImageLayout {
    const layout: ImageLayout = {
      format: 'jpeg',
      width: this.#width,
      height: this.#height,
      progressive: this.#progressive,
      headerEndBytes: this.#headerEnd,
    };
    const { previewEndBytes, goodEndBytes } = this.#progress ?? {};
    if (previewEndBytes !== undefined) layout.previewEndBytes = previewEndBytes;
    if (goodEndBytes !== undefined) layout.goodEndBytes = goodEndBytes;
    return layout;
  }
}

const beforeFirstScan = invalid('JPEG ended before its first scan');
