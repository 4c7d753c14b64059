import { avifProperties } from './avif';
import { ascii, concatBytes, u16be, u32be } from './bytes';
import { pngChunks, webpChunks } from './chunks';
import type { ImageFormat } from './format';
import { jpegSegments } from './jpeg-segments';

// Which colours a file's numbers mean. Browsers colour-manage images: the numbers of a photo tagged Display P3 (every
// recent iPhone photo, every macOS screenshot) are painted as P3 colours. The codecs return the bare numbers and a
// re-encode drops the profile, so the variant's numbers would be painted as sRGB: duller, shifted colours (measured in
// Chromium on a P3 JPEG: a mean difference of 7.8 levels per channel, up to 42, against 3.1 and 25 for re-encoding the
// sRGB copy). A file whose colours are sRGB, or near enough that the difference stays under a level or two, may be
// re-encoded as it is; one with another well-formed RGB profile is re-encoded with that profile copied into the
// output (images/edge/attach-profile.ts); any other is a doubt, and the original is served. Pure apart from
// inflating a PNG's compressed profile; never throws; every length is checked before it is read and every structure
// count is bounded.

/**
 * Whether the decoded numbers may be re-encoded, or why not. With `profile`, they are not sRGB's but the file's RGB
 * ICC profile says what they are, and the output must carry that profile to be painted the same (`why`: how it
 * differs from sRGB).
 */
export type ColourRead =
  | { readonly ok: true; readonly profile?: Uint8Array; readonly why?: string }
  | { readonly ok: false; readonly reason: string };

const srgb: ColourRead = { ok: true };
const doubt = (reason: string): ColourRead => ({ ok: false, reason });

/** Headers and profiles sit in the first bytes of a file; nothing past this is read. */
const maxScanBytes = 1024 * 1024;
/** An ICC profile larger than this (inflated, for PNG) is not read: real RGB profiles are 0.5–4 KB, some 60 KB. */
const maxProfileBytes = 256 * 1024;
/** More boxes than this in an AVIF are an attack, not a photo (the chunk walks have the same limit). */
const maxStructures = 1024;
const maxProfileTags = 256;

/** sRGB's red, green and blue colorants as an ICC profile states them (adapted to D50): X, Y, Z. */
const srgbColorants = [
  [0.4361, 0.2225, 0.0139],
  [0.3851, 0.7169, 0.0971],
  [0.1431, 0.0606, 0.7141],
] as const;
/** How far a colorant may be from sRGB's: profiles round them differently (v2 and v4 sRGB differ by ~0.0005). */
const colorantTolerance = 0.004;
/** How far a tone curve may be from sRGB's, as a share of full scale: 0.012 ≈ 3 levels of 255 (gamma 2.2: 0.004). */
const curveTolerance = 0.012;

/** sRGB's decoding curve (IEC 61966-2-1): the number's share of full scale to linear light. */
const srgbCurve = (x: number) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
const curveSamples = [0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97];

const s15Fixed16 = (b: Uint8Array, at: number) => (u32be(b, at) | 0) / 65536;

/** An ICC tone curve (`curv` or `para`) as a function, or null when its type or size is not understood. */
function toneCurve(icc: Uint8Array, at: number, size: number): ((x: number) => number) | null {
  if (size < 12 || at + size > icc.length) return null;
  const type = ascii(icc, at, 4);
  if (type === 'curv') {
    const count = u32be(icc, at + 8);
    if (12 + count * 2 > size) return null;
    if (count === 0) return (x) => x;
    if (count === 1) {
      const gamma = u16be(icc, at + 12) / 256;
      return (x) => x ** gamma;
    }
    return (x) => {
      const position = x * (count - 1);
      const low = Math.floor(position);
      const high = Math.min(count - 1, low + 1);
      const a = u16be(icc, at + 12 + low * 2) / 65535;
      const b = u16be(icc, at + 12 + high * 2) / 65535;
      return a + (b - a) * (position - low);
    };
  }
  if (type === 'para') {
    const kind = u16be(icc, at + 8);
    const counts = [1, 3, 4, 5, 7];
    const count = counts[kind];
    if (count === undefined || 12 + count * 4 > size) return null;
    const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from({ length: count }, (_, i) =>
      s15Fixed16(icc, at + 12 + i * 4),
    );
    const power = (x: number) => (x >= 0 ? x ** g : 0);
    switch (kind) {
      case 0:
        return (x) => x ** g;
      case 1:
        return (x) => (x >= -b / a ? power(a * x + b) : 0);
      case 2:
        return (x) => (x >= -b / a ? power(a * x + b) + c : c);
      case 3:
        return (x) => (x >= d ? power(a * x + b) : c * x);
      default:
        return (x) => (x >= d ? power(a * x + b) + e : c * x + f);
    }
  }
  return null;
}

const closeToSrgb = (curve: (x: number) => number) =>
  curveSamples.every((x) => Math.abs(curve(x) - srgbCurve(x)) <= curveTolerance);

/**
 * Whether an ICC profile paints numbers as sRGB does: an RGB matrix/TRC profile whose colorants and tone curves are
 * sRGB's within the tolerances, or a grey profile with sRGB's curve. Names are not trusted, the numbers are.
 */
export function profileIsSrgb(icc: Uint8Array): ColourRead {
  if (icc.length < 132 || u32be(icc, 0) > icc.length) return doubt('a cut ICC profile');
  const space = ascii(icc, 16, 4);
  if (space !== 'RGB ' && space !== 'GRAY') return doubt(`a ${space.trim() || 'nameless'} ICC profile`);
  const count = u32be(icc, 128);
  if (count > maxProfileTags || 132 + count * 12 > icc.length) return doubt('an ICC profile with a cut tag table');
  const tags = new Map<string, { at: number; size: number }>();
  for (let entry = 132; entry < 132 + count * 12; entry += 12) {
    tags.set(ascii(icc, entry, 4), { at: u32be(icc, entry + 4), size: u32be(icc, entry + 8) });
  }
  const curveOf = (name: string) => {
    const tag = tags.get(name);
    return tag ? toneCurve(icc, tag.at, tag.size) : null;
  };
  if (space === 'GRAY') {
    const grey = curveOf('kTRC');
    return grey && closeToSrgb(grey) ? srgb : doubt('a grey ICC profile without the sRGB tone curve');
  }
  const names = ['r', 'g', 'b'] as const;
  for (const [index, name] of names.entries()) {
    const colorant = tags.get(`${name}XYZ`);
    if (!colorant || colorant.size < 20 || colorant.at + 20 > icc.length || ascii(icc, colorant.at, 4) !== 'XYZ ') {
      return doubt('an RGB ICC profile without colorants (a LUT profile)');
    }
    const expected = srgbColorants[index] as readonly number[];
    for (let axis = 0; axis < 3; axis++) {
      if (Math.abs(s15Fixed16(icc, colorant.at + 8 + axis * 4) - (expected[axis] as number)) > colorantTolerance) {
        return doubt('an ICC profile with wider or other colours than sRGB (Display P3, Adobe RGB, ...)');
      }
    }
    const curve = curveOf(`${name}TRC`);
    if (!curve || !closeToSrgb(curve)) return doubt('an ICC profile with another tone curve than sRGB');
  }
  return srgb;
}

/**
 * An ICC profile well-formed enough to be copied into another file whole: its stated size is its length, and its
 * tag table and every tag lie inside it. Browsers then read it there as they read it in the original.
 */
function wellFormed(icc: Uint8Array): boolean {
  if (icc.length < 132 || icc.length > maxProfileBytes || u32be(icc, 0) !== icc.length) return false;
  const count = u32be(icc, 128);
  if (count > maxProfileTags || 132 + count * 12 > icc.length) return false;
  for (let entry = 132; entry < 132 + count * 12; entry += 12) {
    if (u32be(icc, entry + 4) + u32be(icc, entry + 8) > icc.length) return false;
  }
  return true;
}

/**
 * sRGB as it is, another well-formed RGB profile to carry into the output (Display P3, Adobe RGB, LUT profiles), or
 * a doubt (CMYK, Lab, a grey profile away from sRGB's curve: the decoded pixels are RGB; anything cut or malformed).
 */
export function judgeProfile(icc: Uint8Array): ColourRead {
  const read = profileIsSrgb(icc);
  if (read.ok) return read;
  if (ascii(icc, 16, 4) === 'RGB ' && wellFormed(icc)) return { ok: true, profile: icc.slice(), why: read.reason };
  return read;
}

/** A JPEG's ICC profile from its `ICC_PROFILE` APP2 segments (numbered chunks, in any order), or null. */
function jpegProfile(bytes: Uint8Array): Uint8Array | null | ColourRead {
  const chunks = new Map<number, Uint8Array>();
  let total = 0;
  const walked = jpegSegments(bytes.subarray(0, Math.min(bytes.length, maxScanBytes)), (marker, payload) => {
    if (marker !== 0xe2 || payload.length < 14 || ascii(payload, 0, 12) !== 'ICC_PROFILE\0') return 'continue';
    const sequence = payload[12] as number;
    total = payload[13] as number;
    chunks.set(sequence, payload.subarray(14));
    return 'continue';
  });
  if (walked === 'too-many') return doubt('more JPEG segments than a photo has');
  if (chunks.size === 0) return null;
  if (chunks.size !== total || total === 0) return doubt('an ICC profile with chunks missing');
  const parts = Array.from({ length: total }, (_, i) => chunks.get(i + 1));
  if (parts.some((part) => !part)) return doubt('an ICC profile with chunks missing');
  return concatBytes(parts as Uint8Array[]);
}

/** Inflates a zlib stream (PNG `iCCP`), stopping past `maxProfileBytes`; null when it is corrupt or too large. */
async function inflate(compressed: Uint8Array): Promise<Uint8Array | null> {
  try {
    const stream = new Blob([compressed]).stream().pipeThrough(new DecompressionStream('deflate'));
    const reader = stream.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return concatBytes(parts);
      size += value.length;
      if (size > maxProfileBytes) {
        await reader.cancel();
        return null;
      }
      parts.push(value);
    }
  } catch {
    return null;
  }
}

/** PNG sRGB chromaticities (cHRM, ×100000): white point, red, green, blue; and gAMA 1/2.2. */
const srgbChromaticities = [31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000];
const chromaticityTolerance = 1000;
const srgbGamma = 45455;
const gammaTolerance = 2500;

/**
 * A PNG's coded colours (`cICP`, PNG third edition: HDR and wide-gamut PNGs): sRGB only with BT.709 primaries (1),
 * the sRGB transfer (13), RGB (matrix 0) at full range; anything else (BT.2020, P3, PQ and HLG HDR) is a doubt.
 */
function cicpColour(data: Uint8Array): ColourRead {
  const [primaries, transfer, matrix, fullRange] = data;
  if (data.length === 4 && primaries === 1 && transfer === 13 && matrix === 0 && fullRange === 1) return srgb;
  return doubt(`PNG colours (cICP) with primaries ${primaries} and transfer ${transfer} (not sRGB)`);
}

/**
 * A PNG's colours, as browsers rank them: `cICP` first (until 2026-11-28 it was not read, and an HDR PQ PNG became
 * an sRGB variant), then `iCCP`, then `sRGB`, then `cHRM` and `gAMA`, all before `IDAT`.
 */
async function pngColour(bytes: Uint8Array): Promise<ColourRead> {
  let coded: ColourRead | undefined;
  let compressedProfile: Uint8Array | undefined;
  let chromaticities: ColourRead = srgb;
  let gamma: ColourRead = srgb;
  let explicitSrgb = false;
  // Beyond the chunk limit, what was read decides (the image data is not reached).
  pngChunks(bytes, ({ type, data }) => {
    if (type === 'IDAT') return 'stop';
    if (type === 'cICP') {
      coded = cicpColour(data);
      return 'stop';
    }
    if (type === 'iCCP') compressedProfile ??= data;
    if (type === 'sRGB') explicitSrgb = true;
    if (type === 'cHRM' && data.length === 32) {
      const off = srgbChromaticities.some((value, i) => Math.abs(u32be(data, i * 4) - value) > chromaticityTolerance);
      if (off) chromaticities = doubt('PNG chromaticities (cHRM) other than those of sRGB');
    }
    if (type === 'gAMA' && data.length === 4 && Math.abs(u32be(data, 0) - srgbGamma) > gammaTolerance) {
      gamma = doubt(`a PNG gamma (gAMA) of 1/${(100000 / Math.max(1, u32be(data, 0))).toFixed(2)}`);
    }
    return 'continue';
  });
  if (coded) return coded;
  if (compressedProfile) {
    const data = compressedProfile;
    const nameEnd = data.indexOf(0);
    if (nameEnd < 1 || nameEnd > 79 || data[nameEnd + 1] !== 0) return doubt('a PNG iCCP chunk that is not zlib');
    const icc = await inflate(data.subarray(nameEnd + 2));
    return icc ? judgeProfile(icc) : doubt('a PNG ICC profile that does not inflate within its limit');
  }
  if (explicitSrgb) return srgb;
  return chromaticities.ok ? gamma : chromaticities;
}

/** A WebP's `ICCP` chunk (VP8X files with the ICC flag). */
function webpColour(bytes: Uint8Array): ColourRead {
  if (ascii(bytes, 12, 4) !== 'VP8X' || ((bytes[20] ?? 0) & 0x20) === 0) return srgb;
  let found = doubt('a WebP that announces an ICC profile and has none');
  webpChunks(bytes, ({ type, data, complete }) => {
    if (type !== 'ICCP') return 'continue';
    found =
      !complete || data.length > maxProfileBytes ? doubt('a cut or oversized WebP ICC profile') : judgeProfile(data);
    return 'stop';
  });
  return found;
}

/**
 * An AVIF's `colr` properties: an ICC profile (`prof`, `rICC`) as above; coded colours (`nclx`) with BT.709/sRGB
 * primaries (1, or 2: unspecified) and the sRGB transfer (13, or 2: unspecified). Anything else (BT.2020, P3, PQ
 * and HLG HDR) is a doubt.
 */
function avifColour(bytes: Uint8Array): ColourRead {
  const properties = avifProperties(bytes, maxScanBytes, maxStructures);
  if (!properties) return doubt('more AVIF boxes than an image has');
  for (const { type, body, end } of properties) {
    if (type !== 'colr' || end - body < 4) continue;
    const kind = ascii(bytes, body, 4);
    if (kind === 'prof' || kind === 'rICC') {
      const read = judgeProfile(bytes.subarray(body + 4, end));
      if (!read.ok || read.profile) return read;
    } else if (kind === 'nclx' && end - body >= 11) {
      const primaries = u16be(bytes, body + 4);
      const transfer = u16be(bytes, body + 6);
      if (![1, 2].includes(primaries) || ![2, 13].includes(transfer)) {
        return doubt(`AVIF colours with primaries ${primaries} and transfer ${transfer} (not sRGB)`);
      }
    }
  }
  return srgb;
}

/** Whether a whole file's decoded numbers may be re-encoded as sRGB (no profile means sRGB, as browsers assume). */
export async function readColour(bytes: Uint8Array, format: ImageFormat): Promise<ColourRead> {
  try {
    switch (format) {
      case 'jpeg': {
        const profile = jpegProfile(bytes);
        if (profile === null) return srgb;
        return profile instanceof Uint8Array ? judgeProfile(profile) : profile;
      }
      case 'png':
        return await pngColour(bytes);
      case 'webp':
        return webpColour(bytes);
      case 'avif':
        return avifColour(bytes);
      case 'gif':
        return srgb;
    }
  } catch {
    return doubt('an unreadable colour profile');
  }
}
