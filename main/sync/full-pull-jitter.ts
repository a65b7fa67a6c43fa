import { createHash } from 'node:crypto';

/** Longest a store PC waits beyond its full interval: one hour, for the daily full pull. */
export const MAX_FULL_PULL_JITTER_MS = 3_600_000;

/**
 * How long this installation waits beyond `fullIntervalSeconds` before its
 * next full pull: a share of the window (an hour, or a 24th of a shorter
 * interval) fixed by its installation id, so stores set up together do not
 * read the whole catalog from head office at the same moment every day.
 */
export function fullPullJitterMs(installationId: string, fullIntervalSeconds: number): number {
  const windowMs = Math.min(MAX_FULL_PULL_JITTER_MS, (fullIntervalSeconds * 1000) / 24);
  const share = createHash('sha256').update(installationId).digest().readUInt32BE(0) / 2 ** 32;
  return Math.floor(share * windowMs);
}
