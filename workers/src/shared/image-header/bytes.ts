// Integer and text reads for header parsers (they do not check bounds: every caller checks the length it needs
// first), and joining byte arrays.

export const u16be = (b: Uint8Array, at: number) => ((b[at] as number) << 8) | (b[at + 1] as number);
export const u16le = (b: Uint8Array, at: number) => (b[at] as number) | ((b[at + 1] as number) << 8);
export const u24le = (b: Uint8Array, at: number) => u16le(b, at) | ((b[at + 2] as number) << 16);
/** Unsigned (multiplication, not `<<`, so values above 2^31 stay positive). */
export const u32be = (b: Uint8Array, at: number) => u16be(b, at) * 0x10000 + u16be(b, at + 2);
export const ascii = (b: Uint8Array, at: number, length: number) => String.fromCharCode(...b.subarray(at, at + length));

/** The parts one after another in a new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
