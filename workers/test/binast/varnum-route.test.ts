import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';

const call = (path: string) => exports.default.fetch(new Request(`http://speedkit.test${path}`));

// The first request starts the whole Worker (every capability's Wasm); on a busy machine that alone can take
// seconds, which is not what these tests measure.
beforeAll(() => call('/__binast/varnum?n=0'), 30_000);

describe('GET /__binast/varnum (Rust crate through Wasm)', () => {
  it('encodes numbers as BinaryAST varnums with the continuation flag in the low bit', async () => {
    const response = await call('/__binast/varnum?n=1,300');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ values: [1, 300], hex: '02 59 04', bytes: 3, decoded: [1, 300] });
  });

  it('round-trips the largest 32-bit value through the decoder', async () => {
    const body = await (await call('/__binast/varnum?n=4294967295')).json<{ bytes: number; decoded: number[] }>();
    expect(body).toMatchObject({ bytes: 5, decoded: [4294967295] });
  });

  it('answers 400 with a JSON error naming the bad value', async () => {
    const response = await call('/__binast/varnum?n=1,-2');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'each n must be an integer from 0 to 4294967295',
      detail: { value: '-2' },
    });
  });

  it('answers 400 when n is missing', async () => {
    const response = await call('/__binast/varnum');
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

describe('static assets behind the Worker', () => {
  it('serves the SPA at /', async () => {
    const response = await call('/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>speedkit');
  });
});
