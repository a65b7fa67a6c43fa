import { defineConfig } from 'vitest/config';

/** The packaging smoke test: slow (a whole electron-builder run), so outside `npm test`; .ci/run runs it. */
export default defineConfig({
  test: {
    include: ['test/package.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
