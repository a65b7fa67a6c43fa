import { randomFillSync } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 20;

/** Random bytes drawn a few kilobytes at a time: one call into the CSPRNG per about a hundred ids instead of one per id. */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

/**
 * A new document id: 20 letters and digits (about 119 random bits). No `-` or
 * `_`, so an id never reads as a command-line option.
 */
export function newId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    const byte = randomByte();
    // 248 = 4 x 62: rejecting the rest keeps every character equally likely.
    if (byte < 248) id += ALPHABET[byte % 62];
  }
  return id;
}
