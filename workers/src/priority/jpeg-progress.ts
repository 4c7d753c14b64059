/** When a progressive JPEG is "good": luma AC 1..`coefficients` (zig-zag order) known to within 2^`maxBitShift`. */
export interface GoodImageRule {
  /** Highest zig-zag index of luma AC that must have arrived (1..63). Default 5: the lowest 2–3 diagonals. */
  coefficients: number;
  /** Largest successive-approximation shift (Al) still counted as arrived. Default 1: all but the last bit. */
  maxBitShift: number;
}

/**
 * Default "good": with libjpeg's default script this is the luma refinement scan (~45–60% of the file), which is
 * where a photo stops looking blocky; MozJPEG scripts reach it with their first full-precision luma AC scan.
 */
export const defaultGoodImageRule: GoodImageRule = { coefficients: 5, maxBitShift: 1 };

/** One progressive scan: the components it carries, its spectral band Ss..Se and approximation bits Ah/Al. */
export interface ScanParameters {
  ids: number[];
  ss: number;
  se: number;
  ah: number;
  al: number;
}

const notArrived = 99;

/**
 * Tracks what a decoder has after each scan, whatever the scan script: which components have their first DC pass,
 * and the precision of each luma coefficient (a first pass sets it to Al, a refinement lowers it to its Al).
 */
export class ProgressTracker {
  previewEndBytes: number | undefined;
  goodEndBytes: number | undefined;
  readonly #dcDone = new Set<number>();
  readonly #lumaBitShift = new Array<number>(64).fill(notArrived);

  constructor(
    private readonly componentIds: readonly number[],
    private readonly good: GoodImageRule,
  ) {}

  /** Applies a scan that ended at `endBytes` (the offset of the marker after it). */
  scanEnded(scan: ScanParameters, endBytes: number): void {
    if (scan.ss === 0 && scan.ah === 0) for (const id of scan.ids) this.#dcDone.add(id);
    if (scan.ids.includes(this.componentIds[0] as number)) {
      for (let k = scan.ss; k <= scan.se; k++) {
        this.#lumaBitShift[k] = Math.min(this.#lumaBitShift[k] as number, scan.al);
      }
    }
    if (this.previewEndBytes === undefined && this.#dcDone.size === this.componentIds.length) {
      this.previewEndBytes = endBytes;
    }
    // Good implies a preview: a script that sends luma AC before chroma DC is good only once the colours arrive.
    if (this.previewEndBytes !== undefined && this.goodEndBytes === undefined && this.#lumaIsGood()) {
      this.goodEndBytes = endBytes;
    }
  }

  #lumaIsGood(): boolean {
    const last = Math.min(63, Math.max(1, this.good.coefficients));
    for (let k = 1; k <= last; k++) if ((this.#lumaBitShift[k] as number) > this.good.maxBitShift) return false;
    return true;
  }
}
