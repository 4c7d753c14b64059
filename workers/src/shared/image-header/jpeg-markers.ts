// The one JPEG marker walk: the priority scanner (streaming), the images source check (whole file) and the frame
// header reader all read a JPEG's structure through it, each with a visitor that says what it wants from it.

/** Budgets checked before each step: thousands of markers or scans are an attack on whoever decodes the file. */
export interface JpegWalkLimits {
  /** More marker segments than this (fill bytes, stuffing and restart markers inside scans not counted) are refused. */
  readonly maxMarkers: number;
  /** More scans (SOS) than this are refused. */
  readonly maxScans: number;
}

/** One marker segment, as soon as its last byte has arrived. */
export interface JpegSegment {
  readonly marker: number;
  /** The payload (after the length field), only for markers the visitor keeps; null for the others. */
  readonly payload: Uint8Array | null;
  /** Offset of the byte after the segment (for SOS: the first byte of entropy-coded data). */
  readonly endBytes: number;
}

/** What the visitor wants after a step: go on, stop here (it has what it needs), or give up with a reason. */
export type JpegVisit = 'continue' | 'stop' | { readonly invalid: string };

export interface JpegVisitor {
  /** Whether to keep this marker's payload for `segment` (others are skipped without copying). */
  keep(marker: number): boolean;
  /** A complete segment. After SOS the walk goes through the entropy-coded data unless told to stop. */
  segment(segment: JpegSegment): JpegVisit;
  /** A scan's entropy-coded data ended at the marker starting at `endBytes`. */
  scanEnded?(endBytes: number): JpegVisit;
}

/** Where the walk is: more bytes wanted, stopped by the visitor, at EOI, or given up. */
export type JpegWalkStatus =
  | { readonly kind: 'walking' }
  | { readonly kind: 'stopped' }
  | { readonly kind: 'ended' }
  | { readonly kind: 'invalid'; readonly reason: string };

const walking: JpegWalkStatus = { kind: 'walking' };

// Only small segments (SOF ≤ 6 + 3·255 bytes, SOS ≤ 4 + 2·4) are ever kept, so anything larger is hostile.
const maxKeptSegmentBytes = 1024;

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

/** SOF0..SOF15 minus DHT (C4), JPG (C8) and DAC (CC), which share the range. */
export const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Markers with no length field: TEM, RST0..7, SOI, EOI. */
const isStandalone = (code: number) => code === 0x01 || (code >= 0xd0 && code <= 0xd9);
/** Inside entropy-coded data, FF00 is a stuffed FF byte and FFD0..FFD7 restart markers: the scan goes on. */
const continuesScan = (code: number) => code === 0x00 || (code >= 0xd0 && code <= 0xd7);

/**
 * Walks a JPEG marker by marker as its bytes arrive, in chunks of any size (the same answer whatever the chunking).
 * Segments are skipped by their length, entropy-coded data with `indexOf(0xff)`: a scan ends at the first marker that
 * is neither FF00 stuffing nor RSTn. Makes no assumption about the scan script. Pure (no I/O), never throws; its
 * work is one pass over the bytes, cut short by the limits.
 */
export class JpegMarkerWalker {
  #state = State.Soi0;
  #offset = 0;
  #marker = 0;
  #markerStart = 0;
  #remaining = 0;
  #kept: number[] = [];
  #keep = false;
  #status: JpegWalkStatus = walking;
  #markers = 0;
  #scans = 0;

  constructor(
    private readonly visitor: JpegVisitor,
    private readonly limits: JpegWalkLimits,
  ) {}

  get status(): JpegWalkStatus {
    return this.#status;
  }

  /** Markers and scans seen so far. */
  get counts(): { readonly markers: number; readonly scans: number } {
    return { markers: this.#markers, scans: this.#scans };
  }

  push(chunk: Uint8Array): JpegWalkStatus {
    let i = 0;
    while (i < chunk.length && this.#status.kind === 'walking') {
      if (this.#state === State.Entropy) {
        const ff = chunk.indexOf(0xff, i);
        if (ff < 0) break;
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
    return this.#status;
  }

  #byte(value: number, at: number): void {
    switch (this.#state) {
      case State.Soi0:
      case State.Soi1:
        this.#startOfImage(value);
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

  #startOfImage(value: number): void {
    if (value !== (this.#state === State.Soi0 ? 0xff : 0xd8)) this.#fail('not a JPEG: missing SOI marker');
    else this.#state = this.#state === State.Soi0 ? State.Soi1 : State.MarkerFf;
  }

  #markerCode(code: number, at: number): void {
    const inEntropy = this.#state === State.EntropyFf;
    if (code === 0xff) return; // fill bytes before a marker
    if (inEntropy && continuesScan(code)) {
      this.#state = State.Entropy;
      return;
    }
    if (inEntropy && !this.#apply(this.visitor.scanEnded?.(this.#markerStart) ?? 'continue')) return;
    if (++this.#markers > this.limits.maxMarkers) {
      this.#fail(`more than ${this.limits.maxMarkers} JPEG markers`);
      return;
    }
    if (code === 0xd9) {
      this.#finish({ kind: 'ended' });
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
    this.#keep = this.visitor.keep(this.#marker);
    if (this.#keep && length - 2 > maxKeptSegmentBytes) {
      this.#fail(`segment FF${hex(this.#marker)} is ${length} bytes long`);
      return;
    }
    this.#kept = [];
    this.#remaining = length - 2;
    this.#state = State.Segment;
    if (this.#remaining === 0) this.#endSegment(payloadStart);
  }

  #endSegment(endBytes: number): void {
    const scan = this.#marker === 0xda;
    this.#state = scan ? State.Entropy : State.MarkerFf;
    if (scan && ++this.#scans > this.limits.maxScans) {
      this.#fail(`more than ${this.limits.maxScans} JPEG scans`);
      return;
    }
    const payload = this.#keep ? Uint8Array.from(this.#kept) : null;
    this.#keep = false;
    this.#apply(this.visitor.segment({ marker: this.#marker, payload, endBytes }));
  }

  /** True when the walk goes on. */
  #apply(visit: JpegVisit): boolean {
    if (visit === 'continue') return true;
    this.#finish(visit === 'stop' ? { kind: 'stopped' } : { kind: 'invalid', reason: visit.invalid });
    return false;
  }

  #fail(reason: string): void {
    this.#finish({ kind: 'invalid', reason });
  }

  #finish(status: JpegWalkStatus): void {
    this.#state = State.Done;
    this.#status = status;
  }
}

/** The walk over bytes held whole (or their first part): its status once they are all pushed, and the counts. */
export function walkJpegMarkers(
  bytes: Uint8Array,
  visitor: JpegVisitor,
  limits: JpegWalkLimits,
): { status: JpegWalkStatus; markers: number; scans: number } {
  const walker = new JpegMarkerWalker(visitor, limits);
  const status = walker.push(bytes);
  return { status, ...walker.counts };
}

function hex(byte: number): string {
  return byte.toString(16).padStart(2, '0').toUpperCase();
}
