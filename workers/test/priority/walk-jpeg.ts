// An independent, whole-buffer reading of a JPEG used as the truth the streaming scanner is checked against. It is
// deliberately written differently (one pass over the complete file, an index loop, no state machine).

export interface WalkedScan {
  /** Offset of the SOS marker's first byte. */
  sosAt: number;
  /** First byte of entropy-coded data. */
  dataAt: number;
  /** Offset of the marker that ends the scan. */
  endAt: number;
  components: number[];
  ss: number;
  se: number;
  ah: number;
  al: number;
}

export interface WalkedJpeg {
  sofMarker: number;
  width: number;
  height: number;
  componentIds: number[];
  scans: WalkedScan[];
  /** APPn markers seen, e.g. 0xe1 for EXIF, 0xe2 for ICC. */
  appMarkers: number[];
  restartMarkers: number;
  dhtSegments: number;
}

export function walkJpeg(b: Uint8Array): WalkedJpeg {
  const out: WalkedJpeg = {
    sofMarker: 0,
    width: 0,
    height: 0,
    componentIds: [],
    scans: [],
    appMarkers: [],
    restartMarkers: 0,
    dhtSegments: 0,
  };
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) throw new Error(`no marker at ${i}`);
    const marker = b[i + 1] as number;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker === 0xd9) break;
    const length = ((b[i + 2] as number) << 8) | (b[i + 3] as number);
    const p = i + 4;
    if (marker >= 0xe0 && marker <= 0xef) out.appMarkers.push(marker);
    if (marker === 0xc4) out.dhtSegments++;
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      out.sofMarker = marker;
      out.height = ((b[p + 1] as number) << 8) | (b[p + 2] as number);
      out.width = ((b[p + 3] as number) << 8) | (b[p + 4] as number);
      for (let c = 0; c < (b[p + 5] as number); c++) out.componentIds.push(b[p + 6 + 3 * c] as number);
    }
    i = p + length - 2;
    if (marker !== 0xda) continue;
    const n = b[p] as number;
    const components = Array.from({ length: n }, (_, c) => b[p + 1 + 2 * c] as number);
    const scan: WalkedScan = {
      sosAt: p - 4,
      dataAt: i,
      endAt: 0,
      components,
      ss: b[p + 1 + 2 * n] as number,
      se: b[p + 2 + 2 * n] as number,
      ah: (b[p + 3 + 2 * n] as number) >> 4,
      al: (b[p + 3 + 2 * n] as number) & 15,
    };
    // Entropy data runs to the first FF that is not followed by 00 (stuffing) or D0-D7 (restart).
    for (; i < b.length - 1; i++) {
      if (b[i] !== 0xff) continue;
      const next = b[i + 1] as number;
      if (next === 0x00) continue;
      if (next >= 0xd0 && next <= 0xd7) {
        out.restartMarkers++;
        continue;
      }
      break;
    }
    scan.endAt = i;
    out.scans.push(scan);
  }
  return out;
}
