import type { Db } from '../storage/database.js';
import type { SyncKind } from './resources.js';

/**
 * What `sync_ids` maps: records by kind, and `image`, a stored image file of
 * this server to the URL the upstream gave the same picture when it was pushed.
 */
export type MappedKind = SyncKind | 'image';

/** Local id to upstream id per kind (table `sync_ids`); rows known upstream under their own id map to themselves. */
export function createIdMap(db: Db) {
  const upstreamOf = db.prepare<[string, string, string], { upstream_id: string }>(
    'SELECT upstream_id FROM sync_ids WHERE org_id = ? AND kind = ? AND local_id = ?',
  );
  const put = db.prepare('INSERT OR REPLACE INTO sync_ids (org_id, kind, local_id, upstream_id) VALUES (?, ?, ?, ?)');
  const localOf = db.prepare<[string, string, string], { local_id: string }>(
    'SELECT local_id FROM sync_ids WHERE org_id = ? AND kind = ? AND upstream_id = ? LIMIT 1',
  );
  const allOf = db.prepare<[string, string], { local_id: string; upstream_id: string }>(
    'SELECT local_id, upstream_id FROM sync_ids WHERE org_id = ? AND kind = ?',
  );

  return {
    upstreamOf(orgId: string, kind: MappedKind, localId: string): string | undefined {
      return upstreamOf.get(orgId, kind, localId)?.upstream_id;
    },
    record(orgId: string, kind: MappedKind, localId: string, upstreamId: string): void {
      put.run(orgId, kind, localId, upstreamId);
    },
    localOf(orgId: string, kind: MappedKind, upstreamId: string): string | undefined {
      return localOf.get(orgId, kind, upstreamId)?.local_id;
    },
    /** Every mapping of a kind, upstream id to local id. */
    byUpstreamId(orgId: string, kind: SyncKind): Map<string, string> {
      const out = new Map<string, string>();
      for (const row of allOf.iterate(orgId, kind)) out.set(row.upstream_id, row.local_id);
      return out;
    },
  };
}

export type IdMap = ReturnType<typeof createIdMap>;
