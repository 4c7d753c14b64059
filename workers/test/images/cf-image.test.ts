import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../src/images/core/url-options';
import { toCloudflareImage } from '../../src/images/edge/cf-image';

const options = (segment: string) => {
  const result = parseOptions(segment, 4096);
  if (!result.ok) throw new Error(JSON.stringify(result.error));
  return result.options;
};

describe('toCloudflareImage (IMAGES_ENGINE=cloudflare)', () => {
  it('maps the URL options onto cf.image', () => {
    expect(
      toCloudflareImage(options('w=320,h=200,fit=cover,q=70,f=webp,dpr=2,g=top,metadata=none'), undefined),
    ).toEqual({
      width: 320,
      height: 200,
      fit: 'cover',
      quality: 70,
      format: 'webp',
      dpr: 2,
      gravity: { x: 0.5, y: 0 },
      metadata: 'none',
      anim: true,
    });
  });

  it('resolves format=auto to the format chosen from Accept, or leaves it out', () => {
    expect(toCloudflareImage(options('f=auto'), 'avif').format).toBe('avif');
    expect(toCloudflareImage(options('f=auto'), undefined).format).toBeUndefined();
  });

  it('passes sharpen only when asked for', () => {
    expect(toCloudflareImage(options('sharpen=2'), undefined).sharpen).toBe(2);
    expect(toCloudflareImage(options(''), undefined)).not.toHaveProperty('sharpen');
  });
});
