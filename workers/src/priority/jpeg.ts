import { isStartOfFrame } from '../shared/image-header/jpeg-frame';
import { defaultGoodImageRule, type GoodImageRule, ProgressTracker, type ScanParameters } from './jpeg-progress';
import { type ImageLayout, type ImageScanner, invalid, more, type ScanResult } from './layout';

// Only SOF and SOS payloads are kept; both are tiny (SOF ≤ 6 + 3·255 bytes), so anything larger is hostile.
const maxKeptSegmentBytes = 1024;
// Real encoders write 1 (baseline) to ~12 scans (libjpeg's progressive script) and a few dozen marker segments;
// thousands of either are an attack on whoever decodes the file. The scanner gives up (the image is passed through
// without priority headers, the reason logged) instead of walking them all.
export const maxJpegScans = 100;
export const maxJpegMarkers = 1000;

enum State {
  Soi0,
  Soi1,
  MarkerFf,
  MarkerCode,
  Length0,
  Length1,
  Segment,
  Entropy,
  EntropyFf,
  Done,
}

/** SOF markers that start a progressive frame (DCT progressive, Huffman or arithmetic, differential or not). */
const isProgressiveSof = (code: number) => code === 0xc2 || code === 0xc6 || code === 0xca || code === 0xce;
/** Markers with no length field: TEM, RST0..7, SOI, EOI. */
const isStandalone = (code: number) => code === 0x01 || (code >= 0xd0 && code <= 0xd9);

/**
 * Streams a JPEG marker by marker. Entropy-coded data is skipped with `indexOf(0xff)`: a scan ends at the first
 * marker that is neither FF00 stuffing nor RSTn, and tables that follow (DHT between scans) belong to the next scan.
 * Makes no assumption about the scan script, so MozJPEG's optimised scripts and jpegtran's custom ones both work.
 */
export { defaultGoodImageRule, type GoodImageRule };

export class JpegScanner implements ImageScanner {
  #state = State.Soi0;
  #offset = 0;
  #marker = 0;
  #markerStart = 0;
  #remaining = 0;
  #kept: number[] = [];
  #keep = false;
  #result: ScanResult = more;
  #width = 0;
  #height = 0;
  #progressive = false;
  #componentIds: number[] = [];
  #headerEnd = 0;
  #progress: ProgressTracker | undefined;
  /** The scan being read, applied when it ends. */
  #scan: ScanParameters | undefined;
  #scans = 0;
  #markers = 0;

  constructor(private readonly good: GoodImageRule = defaultGoodImageRule) {}

  push(chunk: Uint8Array): ScanResult {
    let i = 0;
    while (i < chunk.length && this.#result.kind === 'more') {
      if (this.#state === State.Entropy) {
        const ff = chunk.indexOf(0xff, i);
        if (ff < 0) {
          i = chunk.length;
          break;
        }
        this.#markerStart = this.#offset + ff;
        this.#state = State.EntropyFf;
        i = ff + 1;
        continue;
      }
      if (this.#state === State.Segment && !this.#keep) {
        const skipped = Math.min(this.#remaining, chunk.length - i);
        this.#remaining -= skipped;
        i += skipped;
        if (this.#remaining === 0) this.#endSegment(this.#offset + i);
        continue;
      }
      this.#byte(chunk[i] as number, this.#offset + i);
      i++;
    }
    this.#offset += chunk.length;
    return this.#result;
  }

  finish(): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    // A truncated body still gives a useful answer once the header is known.
    if (this.#headerEnd > 0) return this.#complete();
    return invalid('JPEG ended before its first scan');
  }

  #byte(value: number, at: number): void {
    switch (this.#state) {
      case State.Soi0:
        if (value !== 0xff) this.#fail('not a JPEG: missing SOI marker');
        else this.#state = State.Soi1;
        return;
      case State.Soi1:
        if (value !== 0xd8) this.#fail('not a JPEG: missing SOI marker');
        else this.#state = State.MarkerFf;
        return;
      case State.MarkerFf:
        if (value !== 0xff) this.#fail(`expected a marker at byte ${at}`);
        else {
          this.#markerStart = at;
          this.#state = State.MarkerCode;
        }
        return;
      case State.MarkerCode:
      case State.EntropyFf:
        this.#markerCode(value, at);
        return;
      case State.Length0:
        this.#remaining = value << 8;
        this.#state = State.Length1;
        return;
      case State.Length1:
        this.#startSegment(this.#remaining | value, at + 1);
        return;
      case State.Segment:
        this.#kept.push(value);
        if (--this.#remaining === 0) this.#endSegment(at + 1);
        return;
      default:
        return;
    }
  }

  #markerCode(code: number, at: number): void {
    const inEntropy = this.#state === State.EntropyFf;
    if (code === 0xff) return; // fill bytes before a marker
    if (inEntropy && (code === 0x00 || (code >= 0xd0 && code <= 0xd7))) {
      this.#state = State.Entropy; // byte stuffing or a restart marker: still inside the scan
      return;
    }
    if (inEntropy) this.#endScan(this.#markerStart);
    if (this.#result.kind !== 'more') return;
    if (++this.#markers > maxJpegMarkers) {
      this.#fail(`more than ${maxJpegMarkers} JPEG markers`);
      return;
    }
    if (code === 0xd9) {
      this.#result = this.#headerEnd > 0 ? this.#complete() : invalid('JPEG ended before its first scan');
      return;
    }
    if (code === 0xd8 || code === 0x00) {
      this.#fail(`unexpected marker FF${hex(code)} at byte ${at - 1}`);
      return;
    }
    if (isStandalone(code)) {
      this.#state = State.MarkerFf;
      return;
    }
    this.#marker = code;
    this.#state = State.Length0;
  }

  #startSegment(length: number, payloadStart: number): void {
    if (length < 2) {
      this.#fail(`segment FF${hex(this.#marker)} has length ${length}`);
      return;
    }
    this.#keep = isStartOfFrame(this.#marker) || this.#marker === 0xda;
    if (this.#keep && length - 2 > maxKeptSegmentBytes) {
      this.#fail(`segment FF${hex(this.#marker)} is ${length} bytes long`);
      return;
    }
    this.#kept = [];
    this.#remaining = length - 2;
    this.#state = State.Segment;
    if (this.#remaining === 0) this.#endSegment(payloadStart);
  }

  #endSegment(end: number): void {
    this.#state = State.MarkerFf;
    if (isStartOfFrame(this.#marker)) this.#readFrame();
    else if (this.#marker === 0xda) this.#readScan(end);
    this.#keep = false;
  }

  #readFrame(): void {
    const p = this.#kept;
    if (this.#componentIds.length > 0) {
      this.#fail('more than one SOF marker');
      return;
    }
    const count = p[5] ?? 0;
    if (p.length < 6 + 3 * count || count < 1 || count > 4) {
      this.#fail('malformed SOF segment');
      return;
    }
    this.#height = ((p[1] as number) << 8) | (p[2] as number);
    this.#width = ((p[3] as number) << 8) | (p[4] as number);
    if (this.#width === 0 || this.#height === 0) {
      this.#fail('JPEG without dimensions in SOF (DNL)');
      return;
    }
    for (let c = 0; c < count; c++) this.#componentIds.push(p[6 + 3 * c] as number);
    this.#progressive = isProgressiveSof(this.#marker);
    if (this.#progressive) this.#progress = new ProgressTracker(this.#componentIds, this.good);
  }

  #readScan(end: number): void {
    const p = this.#kept;
    if (++this.#scans > maxJpegScans) {
      this.#fail(`more than ${maxJpegScans} JPEG scans`);
      return;
    }
    const count = p[0] ?? 0;
    if (this.#componentIds.length === 0) {
      this.#fail('SOS before SOF');
      return;
    }
    if (count < 1 || count > 4 || p.length < 4 + 2 * count) {
      this.#fail('malformed SOS segment');
      return;
    }
    const ids: number[] = [];
    for (let c = 0; c < count; c++) {
      const id = p[1 + 2 * c] as number;
      if (!this.#componentIds.includes(id)) {
        this.#fail(`SOS names unknown component ${id}`);
        return;
      }
      ids.push(id);
    }
    const ss = p[1 + 2 * count] as number;
    const se = p[2 + 2 * count] as number;
    const approximation = p[3 + 2 * count] as number;
    if (this.#headerEnd === 0) this.#headerEnd = end;
    if (!this.#progressive) {
      this.#result = this.#complete(); // baseline: only the header matters
      return;
    }
    if (ss > se || se > 63 || (ss === 0 && se !== 0)) {
      this.#fail(`bad spectral range ${ss}..${se}`);
      return;
    }
    this.#scan = { ids, ss, se, ah: approximation >> 4, al: approximation & 15 };
    this.#state = State.Entropy;
  }

  /** Applies the scan that just ended; once the good point is known nothing further is needed. */
  #endScan(end: number): void {
    const scan = this.#scan;
    this.#scan = undefined;
    if (!scan || !this.#progress) return;
    this.#progress.scanEnded(scan, end);
    if (this.#progress.goodEndBytes !== undefined) this.#result = this.#complete();
  }

  #complete(): ScanResult {
    this.#state = State.Done;
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
    return { kind: 'done', layout };
  }

  #fail(reason: string): void {
    this.#state = State.Done;
    this.#result = invalid(reason);
  }
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0').toUpperCase();
}
