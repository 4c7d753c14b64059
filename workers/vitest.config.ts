import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// Worker tests run inside workerd with the bindings from the real wrangler.toml (assets, R2 simulated locally).
export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: fileURLToPath(new URL('../wrangler.toml', import.meta.url)) } })],
  test: {
    name: 'workers',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
  },
});
