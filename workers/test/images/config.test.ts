import { describe, expect, it } from 'vitest';
import { defaultConfig, readConfig } from '../../src/images/core/config';

describe('readConfig', () => {
  it('uses the documented defaults when no var is set', () => {
    expect(readConfig({})).toEqual(defaultConfig);
  });

  it('reads every var', () => {
    expect(
      readConfig({
        IMAGES_ORIGIN: 'https://origin.example',
        IMAGES_ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443/ignored/path',
        IMAGES_ROUTES: '/img/,/photos/',
        IMAGES_FORMATS: 'webp',
        IMAGES_MAX_INPUT_BYTES: '1000',
        IMAGES_MAX_INPUT_MEGAPIXELS: '2.5',
        IMAGES_MAX_AVIF_MEGAPIXELS: '0.5',
        IMAGES_MAX_OUTPUT_DIMENSION: '2048',
        IMAGES_AVIF_MODE: 'sync',
        IMAGES_ENGINE: 'cloudflare',
      }),
    ).toEqual({
      ...defaultConfig,
      origin: 'https://origin.example/',
      allowedOrigins: ['https://a.example', 'https://b.example:8443'],
      routes: ['/img/', '/photos/'],
      formats: ['webp'],
      maxInputBytes: 1000,
      maxInputMegapixels: 2.5,
      maxAvifMegapixels: 0.5,
      maxOutputDimension: 2048,
      avifMode: 'sync',
      engine: 'cloudflare',
    });
  });

  it('falls back to the default for invalid values instead of failing', () => {
    const config = readConfig({
      IMAGES_ORIGIN: 'ftp://nope',
      IMAGES_MAX_INPUT_BYTES: '-5',
      IMAGES_AVIF_MODE: 'later',
      IMAGES_ALLOWED_ORIGINS: 'not a url',
    });
    expect(config).toMatchObject({
      origin: null,
      maxInputBytes: defaultConfig.maxInputBytes,
      avifMode: 'background',
      allowedOrigins: [],
    });
  });
});
