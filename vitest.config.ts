import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Needs a fresh build and a whole electron-builder run: `npm run test:package`, which .ci/run runs.
    exclude: [...configDefaults.exclude, 'test/package.test.ts'],
    // Limits for a hang, not for speed: a test that starts CLIs and servers in processes of their own
    // takes two to three times as long while a second suite shares the two cores, and five times at a load of 30.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A page, a server or a file polled for what it shows: 1 s (Vitest's default) is not always enough
    // while three files share two cores with Chromium; a poll that succeeds returns at once.
    expect: { poll: { timeout: 10_000 } },
    // Each file starts its own servers on ephemeral ports with its own DATA_DIR.
    pool: 'forks',
    // A worker runs file after file without loading the product's modules anew for each:
    // each file starts and stops its own servers, so nothing but the module cache carries over.
    isolate: false,
    // Vitest's default on a 2-core PC is one file at a time; most files spend their
    // time waiting on servers, sync rounds and Chromium, so three at once keep both cores busy.
    maxWorkers: 3,
  },
});
