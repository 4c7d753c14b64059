import { defineConfig } from 'vitest/config';

// Two kinds of tests: Worker code runs inside workerd (its own project config), pure packages run in Node.
export default defineConfig({
  test: {
    projects: [
      'workers/vitest.config.ts',
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'apps/*/test/**/*.test.ts',
            'scripts/**/*.test.ts',
            'bench/*/test/**/*.test.ts',
          ],
        },
      },
    ],
  },
});
