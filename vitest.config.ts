import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Needs a fresh build and a whole electron-builder run: `npm run test:package`, which .ci/run runs.
    exclude: [...configDefaults.exclude, 'test/package.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each file starts its own servers on ephemeral ports with its own DATA_DIR.
    pool: 'forks',
    // Vitest's default on a 2-core PC is one file at a time; most files spend their
    // time waiting on servers, sync rounds and Chromium, so two at once halve the run.
    maxWorkers: 2,
  },
});
