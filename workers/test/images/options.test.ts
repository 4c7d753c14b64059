import { describe, expect, it } from 'vitest';
import { canonicalOptions, parseOptions } from '../../src/images/core/url-options';

const parse = (segment: string) => parseOptions(segment, 4096);
const options = (segment: string) => {
  const result = parse(segment);
  if (!result.ok) throw new Error(`unexpected error ${JSON.stringify(result.error)}`);
  return result.options;
};
const rejected = (segment: string) => {
  const result = parse(segment);
  if (result.ok) throw new Error(`${segment} was accepted`);
  return result.error;
};

describe('parseOptions', () => {
  it('uses Cloudflare defaults when no option is given', () => {
    const defaults = options('');
    expect(defaults).toMatchObject({ fit: 'scale-down', quality: 85, dpr: 1, anim: true });
    expect(defaults.format).toBeUndefined();
  });

  it('reads every option by its long name', () => {
    expect(
      options(
        'width=320,height=200,fit=cover,quality=70,format=webp,dpr=2,gravity=left,onerror=redirect,metadata=none,anim=false,sharpen=1.5',
      ),
    ).toEqual({
      width: 320,
      height: 200,
      fit: 'cover',
      quality: 70,
      format: 'webp',
      dpr: 2,
      gravity: { x: 0, y: 0.5 },
      onErrorRedirect: true,
      metadata: 'none',
      anim: false,
      sharpen: 1.5,
    });
  });

  it('reads the short aliases w, h, q, f and g', () => {
    expect(options('w=10,h=20,q=50,f=auto,g=0.25x0.75')).toMatchObject({
      width: 10,
      height: 20,
      quality: 50,
      format: 'auto',
      gravity: { x: 0.25, y: 0.75 },
    });
  });

  it.each([
    ['high', 90],
    ['medium-high', 80],
    ['medium-low', 70],
    ['low', 60],
  ])('accepts Cloudflare perceptual quality=%s as %i', (name, quality) => {
    expect(options(`quality=${name}`).quality).toBe(quality);
    expect(options(`q=${name}`).quality).toBe(quality);
  });

  it.each([
    ['#ff0000', [255, 0, 0, 255]],
    ['#F00', [255, 0, 0, 255]],
    ['#00ff0080', [0, 255, 0, 128]],
    ['red', [255, 0, 0, 255]],
    ['White', [255, 255, 255, 255]],
    ['rebeccapurple', [102, 51, 153, 255]],
    ['transparent', [0, 0, 0, 0]],
    ['rgb(240,40,145)', [240, 40, 145, 255]],
    ['rgba(240, 40, 145, 0.5)', [240, 40, 145, 128]],
    ['rgb(255 255 0 / 50%)', [255, 255, 0, 128]],
  ])('accepts Cloudflare background=%s', (colour, rgba) => {
    expect(options(`background=${encodeURIComponent(colour)}`).background).toEqual(rgba);
  });

  it.each(['#12345', 'nocolour', 'rgb(1,2)', 'rgb(300,0,0)', 'hsl(0 0% 0%)', ''])(
    'rejects background=%s naming background',
    (colour) => {
      expect(rejected(`background=${encodeURIComponent(colour)}`).option).toBe('background');
    },
  );

  it('reads percent-encoded commas inside a value, not as option separators (rgb%28240%2C40%2C145%29)', () => {
    expect(options('w=10,background=rgb%28240%2C40%2C145%29,f=webp')).toMatchObject({
      width: 10,
      background: [240, 40, 145, 255],
      format: 'webp',
    });
  });

  it('keys different backgrounds differently, and no background as before', () => {
    expect(canonicalOptions(options('background=red'))).not.toBe(canonicalOptions(options('background=blue')));
    expect(canonicalOptions(options('w=10'))).not.toContain('bg');
  });

  it.each(['auto', 'face'])(
    'reads Cloudflare gravity=%s as the centre (no saliency or face detection here)',
    (value) => {
      expect(options(`gravity=${value}`).gravity).toEqual({ x: 0.5, y: 0.5 });
    },
  );

  it('accepts Cloudflare width=auto as no width (the source width; client hints are not read)', () => {
    expect(options('width=auto,h=20')).toMatchObject({ height: 20 });
    expect(options('w=auto').width).toBeUndefined();
    expect(rejected('height=auto').option).toBe('height');
  });

  it.each(['scale-down', 'contain', 'cover', 'crop', 'pad'])('accepts fit=%s', (fit) => {
    expect(options(`fit=${fit}`).fit).toBe(fit);
  });

  it.each(['auto', 'avif', 'webp', 'jpeg', 'baseline-jpeg', 'png', 'json'])('accepts format=%s', (format) => {
    expect(options(`format=${format}`).format).toBe(format);
  });

  it.each([
    ['width=0', 'width'],
    ['width=abc', 'width'],
    ['w=-5', 'w'],
    ['height=1.5', 'height'],
    ['quality=0', 'quality'],
    ['q=101', 'q'],
    ['q=medium', 'q'],
    ['fit=stretch', 'fit'],
    ['format=gif', 'format'],
    ['dpr=0', 'dpr'],
    ['dpr=3', 'dpr'],
    ['gravity=middle', 'gravity'],
    ['onerror=ignore', 'onerror'],
    ['metadata=all', 'metadata'],
    ['anim=yes', 'anim'],
    ['sharpen=11', 'sharpen'],
    ['blur=5', 'blur'],
  ])('rejects %s naming %s', (segment, option) => {
    expect(rejected(segment).option).toBe(option);
  });

  it('rejects a width above the deployment limit instead of clamping it', () => {
    expect(rejected('width=5000')).toEqual({ option: 'width', value: '5000', reason: 'must be at most 4096' });
  });

  it('rejects an option given twice, including through an alias', () => {
    expect(rejected('width=10,w=20')).toMatchObject({ option: 'w', reason: 'given more than once' });
  });

  it('knows no names from Object.prototype, as values or as options (the fuzz smoke found g=valueOf)', () => {
    for (const name of ['valueOf', 'constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(rejected(`w=40,h=40,fit=cover,g=${name}`)).toMatchObject({ option: 'g', value: name });
      expect(rejected(`${name}=1`)).toMatchObject({ option: name.toLowerCase(), reason: 'unknown option' });
    }
  });
});

describe('canonicalOptions', () => {
  it('gives aliases and long names the same cache key', () => {
    expect(canonicalOptions(options('w=100,q=80'))).toBe(canonicalOptions(options('quality=80,width=100')));
  });

  it('keys different sizes differently', () => {
    expect(canonicalOptions(options('w=100'))).not.toBe(canonicalOptions(options('w=101')));
  });
});
