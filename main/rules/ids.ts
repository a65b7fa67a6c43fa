import { randomBytes } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 20;

/**
 * A new document id: 20 letters and digits (about 119 random bits). No `-` or
 * `_`, so an id never reads as a command-line option.
 */
export function newId(): string {
  let id = '';
  while (id.length < ID_LENGTH) {
    for (const byte of randomBytes(32)) {
      // 248 = 4 x 62: rejecting the rest keeps every character equally likely.
      if (byte < 248 && id.length < ID_LENGTH) id += ALPHABET[byte % 62];
    }
  }
  return id;
}
