import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `npm run test:next`: the drop-in `streamText` in a Next.js app, built with Turbopack and with webpack. */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    environment: 'node',
    include: ['test/next/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
