import { describe, expect, it } from 'vitest';
import { isIdentity, planResize } from '../../src/images/core/resize-plan';
import type { Fit } from '../../src/images/core/url-options';

const source = { width: 600, height: 400 };
const center = { x: 0.5, y: 0.5 };
const plan = (fit: Fit, width?: number, height?: number, dpr = 1, max = 4096) =>
  planResize(source, { width, height, fit, dpr, gravity: center }, max);

describe('planResize', () => {
  it('keeps the source as it is without width or height', () => {
    const result = plan('scale-down');
    expect(isIdentity(result, source)).toBe(true);
  });

  it('follows the aspect ratio when only the width is given', () => {
    expect(plan('scale-down', 300)).toMatchObject({ width: 300, height: 200 });
  });

  it('scale-down never enlarges; contain does', () => {
    expect(plan('scale-down', 1200, 1200)).toMatchObject({ width: 600, height: 400 });
    expect(plan('contain', 1200, 1200)).toMatchObject({ width: 1200, height: 800 });
  });

  it('scales an aspect-keeping output down to maxPixels, never an exact box', () => {
    const capped = planResize(source, { width: 3000, fit: 'contain', dpr: 1, gravity: center }, 4096, 60_000);
    expect(capped).toMatchObject({ width: 300, height: 200 });
    const box = planResize(source, { width: 3000, height: 3000, fit: 'pad', dpr: 1, gravity: center }, 4096, 60_000);
    expect(box).toMatchObject({ width: 3000, height: 3000 });
  });

  it('contain fits inside the box keeping the aspect ratio', () => {
    expect(plan('contain', 300, 300)).toMatchObject({ width: 300, height: 200 });
  });

  it('cover fills the box exactly, cropping the centre of the long side', () => {
    expect(plan('cover', 200, 200)).toEqual({
      crop: { x: 100, y: 0, width: 400, height: 400 },
      resized: { width: 200, height: 200 },
      width: 200,
      height: 200,
      offset: { x: 0, y: 0 },
    });
  });

  it('cover follows gravity', () => {
    const left = planResize(source, { width: 200, height: 200, fit: 'cover', dpr: 1, gravity: { x: 0, y: 0.5 } }, 4096);
    expect(left.crop.x).toBe(0);
  });

  it('crop does not enlarge: a box taller than the source keeps the source height', () => {
    expect(plan('crop', 300, 1000)).toMatchObject({
      width: 300,
      height: 400,
      crop: { x: 150, width: 300, height: 400 },
    });
  });

  it('pad gives exactly the box with the image centred', () => {
    expect(plan('pad', 300, 300)).toEqual({
      crop: { x: 0, y: 0, width: 600, height: 400 },
      resized: { width: 300, height: 200 },
      width: 300,
      height: 300,
      offset: { x: 0, y: 50 },
    });
  });

  it('multiplies by dpr', () => {
    expect(plan('scale-down', 150, undefined, 2)).toMatchObject({ width: 300, height: 200 });
  });

  it('clamps dpr-enlarged output to the deployment maximum, keeping the aspect ratio', () => {
    expect(plan('contain', 3000, undefined, 2, 4096)).toMatchObject({ width: 4096, height: 2731 });
  });
});
