import { grantFromRow, type GrantRow, type KeyGrant } from './api-keys.js';
import type { Db } from './database.js';

export function createStaffSignInStore(db: Db) {
  const insert = db.prepare('INSERT INTO staff_sign_ins (token_hash, key_id, created_at, expires_at) VALUES (?, ?, ?, ?)');
  const remove = db.prepare('DELETE FROM staff_sign_ins WHERE token_hash = ?');
  // Ended ones are of no use any more: expired, or opened with a key since revoked.
  const removeEnded = db.prepare(
    'DELETE FROM staff_sign_ins WHERE expires_at <= ? OR key_id IN (SELECT id FROM api_keys WHERE active = 0)',
  );
  const grant = db.prepare<[string, string], GrantRow & { expires_at: string }>(
    `SELECT k.id AS key_id, k.key_hash, k.kind, k.store, o.id AS org_id, o.features, s.expires_at
       FROM staff_sign_ins s
       JOIN api_keys k ON k.id = s.key_id AND k.active = 1
       JOIN organizations o ON o.id = k.org_id
      WHERE s.token_hash = ? AND s.expires_at > ?`,
  );

  return {
    insert(signIn: { tokenHash: string; keyId: string; createdAt: string; expiresAt: string }): void {
      insert.run(signIn.tokenHash, signIn.keyId, signIn.createdAt, signIn.expiresAt);
    },
    remove(tokenHash: string): void {
      remove.run(tokenHash);
    },
    removeEnded(now: string): void {
      removeEnded.run(now);
    },
    /** The grant of the key behind a sign-in that has not expired and whose key is still active; read from the file on every call, so a revoke on the CLI applies at once. */
    grantOf(tokenHash: string, now: string): (KeyGrant & { expiresAt: string }) | undefined {
      const row = grant.get(tokenHash, now);
      return row && { ...grantFromRow(row, true), expiresAt: row.expires_at };
    },
  };
}

export type StaffSignInStore = ReturnType<typeof createStaffSignInStore>;
