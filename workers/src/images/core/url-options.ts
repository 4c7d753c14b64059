import { parseCssColour, type Rgba } from './css-colour';

/** How the image fills the requested box (Cloudflare Image Resizing semantics). */
export type Fit = 'scale-down' | 'contain' | 'cover' | 'crop' | 'pad';
export type OutputFormat = 'auto' | 'avif' | 'webp' | 'jpeg' | 'baseline-jpeg' | 'png' | 'json';
/** Where to keep the image when cropping: a side, the centre, or a point as fractions of width and height. */
export type Gravity = { readonly x: number; readonly y: number };

/** Options of `/cdn-cgi/image/<options>/<source>` after validation. */
export interface UrlOptions {
  /** Requested width in CSS pixels (multiplied by `dpr`). */
  readonly width?: number;
  readonly height?: number;
  readonly fit: Fit;
  /** 1–100, default 85 like Cloudflare; the perceptual names are read as numbers (`qualityLevels`). */
  readonly quality: number;
  /** Output format; unset keeps the source's format. */
  readonly format?: OutputFormat;
  /** Device pixel ratio, (0, 2]. */
  readonly dpr: number;
  readonly gravity: Gravity;
  /** On a source error, redirect to the source instead of answering an error. */
  readonly onErrorRedirect: boolean;
  /** Re-encoding always drops metadata (EXIF, ICC, XMP); `keep` and `copyright` keep the original untouched. */
  readonly metadata: 'keep' | 'copyright' | 'none';
  /** `false` asks for a still image; animated sources are passed through either way (see README). */
  readonly anim: boolean;
  /** Accepted for URL compatibility, not applied (documented). */
  readonly sharpen: number;
  /** Under transparent pixels and in `fit=pad`'s padding; unset: transparent, white for JPEG. */
  readonly background?: Rgba;
}

/** A rejected option, for a 400 answer that names it. */
export interface OptionError {
  readonly option: string;
  readonly value: string;
  readonly reason: string;
}

export type ParseResult =
  | { readonly ok: true; readonly options: UrlOptions }
  | { readonly ok: false; readonly error: OptionError };

const defaultQuality = 85;
const maxDpr = 2;

// Maps, not object literals: a lookup in a literal finds Object.prototype's names too (`g=valueOf` read a function
// as the gravity, and the crop came out NaN; found by the fuzz smoke).
const aliases: ReadonlyMap<string, string> = new Map([
  ['w', 'width'],
  ['h', 'height'],
  ['q', 'quality'],
  ['f', 'format'],
  ['g', 'gravity'],
]);
/**
 * Cloudflare's perceptual quality levels. Cloudflare publishes no numbers for them; these sit around its default 85,
 * ten apart, so `high` is above the default and `low` clearly smaller, on the same 1–100 scale every format reads.
 */
const qualityLevels: ReadonlyMap<string, number> = new Map([
  ['high', 90],
  ['medium-high', 80],
  ['medium-low', 70],
  ['low', 60],
]);
const fits: readonly Fit[] = ['scale-down', 'contain', 'cover', 'crop', 'pad'];
const formats: readonly OutputFormat[] = ['auto', 'avif', 'webp', 'jpeg', 'baseline-jpeg', 'png', 'json'];
const sides: ReadonlyMap<string, Gravity> = new Map([
  // Cloudflare's `auto` (saliency) and `face` (faces, else the centre) need detection this Worker does not do.
  ['auto', { x: 0.5, y: 0.5 }],
  ['face', { x: 0.5, y: 0.5 }],
  ['center', { x: 0.5, y: 0.5 }],
  ['left', { x: 0, y: 0.5 }],
  ['right', { x: 1, y: 0.5 }],
  ['top', { x: 0.5, y: 0 }],
  ['bottom', { x: 0.5, y: 1 }],
]);

type MutableOptions = { -readonly [K in keyof UrlOptions]: UrlOptions[K] };

/** Reads one option's value: what it sets, or the reason it is refused. */
type OptionParser = (value: string, maxDimension: number) => Partial<MutableOptions> | string;

const decimal = /^\d+(\.\d+)?$/;

function parseDimension(name: 'width' | 'height'): OptionParser {
  return (value, maxDimension) => {
    // Cloudflare's `width=auto` picks a width from Chromium's client hints; without reading them (and varying on
    // them) the best width known is the source's own, so it asks for none rather than failing the image.
    if (name === 'width' && value === 'auto') return {};
    if (!/^\d+$/.test(value) || Number(value) < 1) return 'must be a positive integer';
    if (Number(value) > maxDimension) return `must be at most ${maxDimension}`;
    return { [name]: Number(value) };
  };
}

/** One parser per option name (after aliases). */
const optionParsers: ReadonlyMap<string, OptionParser> = new Map<string, OptionParser>([
  ['width', parseDimension('width')],
  ['height', parseDimension('height')],
  [
    'quality',
    (value) => {
      const level = qualityLevels.get(value);
      if (level !== undefined) return { quality: level };
      return !/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100
        ? 'must be an integer from 1 to 100 or high, medium-high, medium-low, low'
        : { quality: Number(value) };
    },
  ],
  [
    'dpr',
    (value) => {
      const dpr = Number(value);
      if (!decimal.test(value) || !(dpr > 0) || dpr > maxDpr) return `must be a number above 0 and at most ${maxDpr}`;
      return { dpr };
    },
  ],
  ['fit', (value) => (fits.includes(value as Fit) ? { fit: value as Fit } : `must be one of ${fits.join(', ')}`)],
  [
    'format',
    (value) =>
      formats.includes(value as OutputFormat)
        ? { format: value as OutputFormat }
        : `must be one of ${formats.join(', ')}`,
  ],
  [
    'gravity',
    (value) => {
      const gravity = sides.get(value) ?? parsePoint(value);
      return gravity
        ? { gravity }
        : 'must be auto, face, center, left, right, top, bottom or XxY with fractions from 0 to 1';
    },
  ],
  ['onerror', (value) => (value === 'redirect' ? { onErrorRedirect: true } : 'must be redirect')],
  [
    'metadata',
    (value) =>
      value === 'keep' || value === 'copyright' || value === 'none'
        ? { metadata: value }
        : 'must be keep, copyright or none',
  ],
  [
    'background',
    (value) => {
      const background = parseCssColour(value);
      return background ? { background } : 'must be a CSS colour: #RRGGBB, #RGB(A), rgb(), rgba() or a colour name';
    },
  ],
  ['anim', (value) => (value === 'true' || value === 'false' ? { anim: value === 'true' } : 'must be true or false')],
  [
    'sharpen',
    (value) => {
      const sharpen = Number(value);
      return !decimal.test(value) || sharpen > 10 ? 'must be a number from 0 to 10' : { sharpen };
    },
  ],
]);

/**
 * Parses the comma-separated options segment (`width=320,fit=cover,f=auto`) as it is in the URL: split on commas
 * first, then each name and value percent-decoded, so a value keeps its encoded commas (Cloudflare's
 * `background=rgb%28240%2C40%2C145%29`). Never throws; the first problem is
 * returned so the caller can answer 400 naming the option. Limits that protect the Worker (output size) are not
 * options: `maxDimension` comes from configuration and a larger width or height is rejected, not clamped.
 */
export function parseOptions(segment: string, maxDimension: number): ParseResult {
  const seen = new Set<string>();
  const options: MutableOptions = {
    fit: 'scale-down',
    quality: defaultQuality,
    dpr: 1,
    gravity: { x: 0.5, y: 0.5 },
    onErrorRedirect: false,
    metadata: 'copyright',
    anim: true,
    sharpen: 0,
  };
  for (const pair of segment.split(',')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = decoded(equals < 0 ? pair : pair.slice(0, equals))
      ?.trim()
      .toLowerCase();
    const value = equals < 0 ? '' : decoded(pair.slice(equals + 1))?.trim();
    if (rawName === undefined || value === undefined) {
      return { ok: false, error: { option: pair, value: pair, reason: 'not valid percent-encoding' } };
    }
    const option = aliases.get(rawName) ?? rawName;
    const fail = (reason: string): ParseResult => ({ ok: false, error: { option: rawName, value, reason } });
    if (seen.has(option)) return fail('given more than once');
    seen.add(option);
    const parse = optionParsers.get(option);
    if (!parse) return fail('unknown option');
    const parsed = parse(value, maxDimension);
    if (typeof parsed === 'string') return fail(parsed);
    Object.assign(options, parsed);
  }
  return { ok: true, options };
}

/** A name or value percent-decoded, or undefined when its encoding is broken. */
function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

function parsePoint(value: string): Gravity | null {
  const match = /^(0(?:\.\d+)?|1(?:\.0+)?)x(0(?:\.\d+)?|1(?:\.0+)?)$/.exec(value);
  return match ? { x: Number(match[1]), y: Number(match[2]) } : null;
}

/** A stable text form of the options that change the output bytes, for cache keys. */
export function canonicalOptions(options: UrlOptions): string {
  const { width, height, fit, quality, dpr, gravity, background } = options;
  // A background only when given, so every key made before it existed still names the same variant.
  const under = background ? `,bg=${background.join('.')}` : '';
  return `w=${width ?? ''},h=${height ?? ''},fit=${fit},q=${quality},dpr=${dpr},g=${gravity.x}x${gravity.y}${under}`;
}
