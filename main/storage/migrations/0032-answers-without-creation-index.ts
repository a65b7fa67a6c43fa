import type { Migration } from './index.js';

/**
 * No query reads kept answers by their creation time (purges go by expiry or
 * by sender), yet every `Idempotency-Key` answer, a pushed sale's among them,
 * wrote that index too: one b-tree page more in each commit's WAL.
 */
export const answersWithoutCreationIndex: Migration = {
  version: 32,
  name: 'answers-without-creation-index',
  sql: `
DROP INDEX IF EXISTS idempotency_keys_created;
`,
};
