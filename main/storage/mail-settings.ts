import type { Db } from './database.js';

/** An organization's own mail server, set with `POST /mail/settings`; the URL stays sealed (it may hold a password). */
export interface StoredMailSettings {
  sealedSmtpUrl: string;
  from: string;
  updatedAt: string;
}

export function createMailSettingsStore(db: Db) {
  const upsert = db.prepare<[string, string, string, string]>(
    `INSERT INTO mail_settings (org_id, sealed_smtp_url, from_address, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (org_id) DO UPDATE SET sealed_smtp_url = excluded.sealed_smtp_url, from_address = excluded.from_address, updated_at = excluded.updated_at`,
  );
  const byOrg = db.prepare<[string], { sealed_smtp_url: string; from_address: string; updated_at: string }>(
    'SELECT sealed_smtp_url, from_address, updated_at FROM mail_settings WHERE org_id = ?',
  );
  return {
    set(orgId: string, settings: StoredMailSettings): void {
      upsert.run(orgId, settings.sealedSmtpUrl, settings.from, settings.updatedAt);
    },
    get(orgId: string): StoredMailSettings | undefined {
      const row = byOrg.get(orgId);
      return row ? { sealedSmtpUrl: row.sealed_smtp_url, from: row.from_address, updatedAt: row.updated_at } : undefined;
    },
  };
}

export type MailSettingsStore = ReturnType<typeof createMailSettingsStore>;
