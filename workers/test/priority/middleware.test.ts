import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { scanImage } from '../../src/priority/scanner';

const call = (path: string) => exports.default.fetch(new Request(`http://speedkit.test${path}`));
const asset = async (path: string) =>
  new Uint8Array(await (await env.ASSETS.fetch(new Request(`http://speedkit.test${path}`))).arrayBuffer());

// The first asset request warms workerd up, which can take seconds on a loaded 2-core machine.
describe('priority middleware in the all-in-one Worker (static assets behind it)', { timeout: 30_000 }, () => {
  const demoImages = [
    'astronaut',
    'chelsea',
    'coffee',
    'hubble_deep_field',
    'brick',
    'grass',
    'gravel',
    'astronaut-large',
    'coffee-large',
    'hubble-small',
  ];

  it.each(demoImages)('annotates demo image %s.jpg with the offsets of its own bytes', async (name) => {
    const response = await call(`/demo/priority/${name}.jpg`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes).toEqual(await asset(`/demo/priority/${name}.jpg`));
    const scanned = scanImage(bytes);
    if (scanned.kind !== 'done') throw new Error(JSON.stringify(scanned));
    const { headerEndBytes, previewEndBytes, goodEndBytes } = scanned.layout;
    expect(response.headers.get('cf-priority')).toBe('30/0');
    expect(response.headers.get('cf-priority-change')).toBe(
      `${headerEndBytes}:20/1, ${previewEndBytes}:15/1, ${goodEndBytes}:10/0`,
    );
    expect(response.headers.get('priority')).toBe('u=3, i');
  });

  it('leaves the demo page itself alone', async () => {
    const response = await call('/demo/priority');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('priority/astronaut.jpg');
    expect(response.headers.has('cf-priority')).toBe(false);
    expect(response.headers.has('priority')).toBe(false);
  });
});
