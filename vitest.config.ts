import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/next/**', 'test/browser/**/*.browser.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'threads',
  },
});
