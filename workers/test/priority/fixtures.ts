// The generated fixtures (bench/priority/make-images.mjs, run by the build) as bytes. Vite inlines each file as a
// data URL at transform time: workerd has no access to the host's file system.
declare global {
  interface ImportMeta {
    glob(pattern: string, options: { query: string; import: string; eager: true }): Record<string, string>;
  }
}

const inlined = import.meta.glob('./fixtures/*', { query: '?inline', import: 'default', eager: true });

function decodeDataUrl(url: string): Uint8Array {
  const binary = atob(url.slice(url.indexOf(',') + 1));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export interface Fixture {
  /** `<photo>--<variant>.<ext>`, e.g. `astronaut--sharp-mozjpeg-progressive.jpg`. */
  name: string;
  photo: string;
  variant: string;
  bytes: Uint8Array;
}

export const fixtures: Fixture[] = Object.entries(inlined)
  .map(([path, url]) => {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const [photo = '', variant = ''] = name.split('--');
    return { name, photo, variant, bytes: decodeDataUrl(url) };
  })
  .sort((a, b) => a.name.localeCompare(b.name));

export const jpegFixtures = fixtures.filter((f) => f.name.endsWith('.jpg'));
