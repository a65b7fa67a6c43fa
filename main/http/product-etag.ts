import { createHash } from 'node:crypto';
import { PreconditionFailed } from '../services/errors.js';

/**
 * A strong entity tag of an answer: a digest of its JSON, so two answers
 * share a tag exactly when they are the same bytes. The Express route and
 * the hot read path tag the same answer object, and so give the same tag.
 */
export const entityTag = (answer: unknown): string => `"${createHash('sha256').update(JSON.stringify(answer)).digest('base64url').slice(0, 32)}"`;

/**
 * Throws 412 unless an `If-Match` header names the record's current tag
 * (`*`: any current record). A record gone (undefined, or deleted) matches
 * nothing; weak tags never match, as a strong comparison requires.
 */
export function requireMatch(ifMatch: string, what: string, current: { tag: string; gone: boolean } | undefined): void {
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  if (current && !current.gone && (tags.includes('*') || tags.includes(current.tag))) return;
  throw new PreconditionFailed(
    current && !current.gone
      ? `The ${what} changed since it was read (If-Match ${ifMatch} is not its ETag ${current.tag}); nothing was written. Read it again and apply the change to what it holds now.`
      : `The ${what} was deleted since it was read; nothing was written.`,
  );
}
