import { judge, type Verdict } from './retry-policy.js';
import type { Upstream } from './upstream.js';
import type { Clock } from '../services/clock.js';

/** What the upstream offers beyond the v1 contract: the collection paths with a change feed, and whether it keeps a fleet list. */
export interface UpstreamOffer {
  feeds: ReadonlySet<string>;
  /** `POST /fleet/heartbeat` marked as an extension: the round tells it this PC's state. */
  fleet: boolean;
}

/** A v1-only upstream: no change feed anywhere, the pull reads whole lists, and it is told nothing else. */
export const V1_ONLY: UpstreamOffer = { feeds: new Set(), fleet: false };

type Json = Record<string, any>;

const marked = (value: unknown): boolean => (value as Json | undefined)?.['x-extension'] === true;

/**
 * Whether `POST /fleet/heartbeat` is there (marked as an extension), and
 * the collections whose `GET` takes `updatedSince` marked as an extension
 * (on the parameter or its schema), provided the list meta has
 * `completeUntil`: a feed that does not say up to when it is complete cannot
 * be walked on from where it stopped, so it counts as absent.
 */
export function offerOf(document: unknown): UpstreamOffer {
  const doc = (document ?? {}) as Json;
  const fleet = marked(doc.paths?.['/fleet/heartbeat']?.post);
  if (!doc.components?.schemas?.ListMeta?.properties?.completeUntil) return { ...V1_ONLY, fleet };
  const feeds = new Set<string>();
  for (const [path, methods] of Object.entries((doc.paths ?? {}) as Json)) {
    const parameters = ((methods as Json).get?.parameters ?? []) as Json[];
    if (parameters.some((p) => p.name === 'updatedSince' && p.in === 'query' && (marked(p) || marked(p.schema)))) feeds.add(path);
  }
  return { feeds, fleet };
}

/**
 * Reads the upstream's `/openapi.json` (under its base URL). An upstream that
 * serves none, or answers it with any 4xx, is taken as v1-only; no answer or
 * a 5xx stops the round like any other call that did not get through.
 */
export async function readUpstreamOffer(upstream: Upstream, clock: Clock): Promise<{ offer: UpstreamOffer } | { stoppedBy: Exclude<Verdict, { kind: 'accepted' }> }> {
  const result = await upstream.send({ method: 'GET', path: '/openapi.json' });
  if (result.kind === 'answer' && result.status >= 400 && result.status < 500 && result.status !== 408 && result.status !== 429) return { offer: V1_ONLY };
  const verdict = judge(result, clock.now());
  if (verdict.kind !== 'accepted') return { stoppedBy: verdict };
  return { offer: result.kind === 'answer' ? offerOf(result.body) : V1_ONLY };
}
