import { storedImageNameIn } from '../rules/image-urls.js';

type Row = Record<string, unknown>;

/**
 * Field-level merge of an upstream record into the local one. Fields in
 * `keep` (bookkeeping: id, organization, creation time) stay local; a field
 * with a local change not yet pushed keeps its local value; every other field
 * takes the upstream value, also when the upstream no longer has it.
 */
export function mergeRecord(local: Row | undefined, upstream: Row, unpushed: ReadonlySet<string> | undefined, keep: readonly string[]): Row {
  if (local === undefined) return { ...upstream };
  const out: Row = {};
  for (const field of new Set([...Object.keys(local), ...Object.keys(upstream)])) {
    const value = keep.includes(field) || unpushed?.has(field) ? local[field] : upstream[field];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );

/** Whether two records hold the same values, whatever the order of their fields. */
export function sameRecord(a: Row, b: Row): boolean {
  return canonical(a) === canonical(b);
}

/**
 * The upstream record with its `imageUrl` replaced by the local one when both
 * name the same picture: one this server stored and pushed, which the
 * upstream keeps under a URL of its own (`localFileOf` maps that URL back to
 * the local file, from the answers to the uploads). The store then goes on
 * serving its own file and never deletes it for the upstream's copy; a
 * picture set upstream later has another URL and is taken as usual.
 */
export function keepLocalImage(local: Row | undefined, upstream: Row, localFileOf: (upstreamUrl: string) => string | undefined): Row {
  if (typeof local?.imageUrl !== 'string' || typeof upstream.imageUrl !== 'string' || upstream.imageUrl === '') return upstream;
  const localName = storedImageNameIn(local.imageUrl);
  if (localName === undefined || localFileOf(upstream.imageUrl) !== localName) return upstream;
  return { ...upstream, imageUrl: local.imageUrl };
}
