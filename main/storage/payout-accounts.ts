import type { Db } from './database.js';

/** The organization's own bank account, the debtor of its payout files. */
export interface PayoutAccount {
  name: string;
  iban: string;
  bic?: string | undefined;
  street?: string | undefined;
  zipCode?: string | undefined;
  city?: string | undefined;
  country?: string | undefined;
}

type Row = Record<string, string | null>;

const optional = (key: keyof PayoutAccount, value: string | null | undefined) => (value === null || value === undefined ? {} : { [key]: value });

export function createPayoutAccountStore(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO payout_accounts (org_id, name, iban, bic, street, zip_code, city, country, updated_at)
     VALUES (@orgId, @name, @iban, @bic, @street, @zipCode, @city, @country, @updatedAt)
     ON CONFLICT (org_id) DO UPDATE SET name = excluded.name, iban = excluded.iban, bic = excluded.bic, street = excluded.street,
       zip_code = excluded.zip_code, city = excluded.city, country = excluded.country, updated_at = excluded.updated_at`,
  );
  const byOrg = db.prepare<[string], Row>('SELECT * FROM payout_accounts WHERE org_id = ?');
  return {
    put(orgId: string, account: PayoutAccount, updatedAt: string): void {
      upsert.run({
        orgId,
        name: account.name,
        iban: account.iban,
        bic: account.bic ?? null,
        street: account.street ?? null,
        zipCode: account.zipCode ?? null,
        city: account.city ?? null,
        country: account.country ?? null,
        updatedAt,
      });
    },
    get(orgId: string): PayoutAccount | undefined {
      const row = byOrg.get(orgId);
      if (!row) return undefined;
      return {
        name: row.name as string,
        iban: row.iban as string,
        ...optional('bic', row.bic),
        ...optional('street', row.street),
        ...optional('zipCode', row.zip_code),
        ...optional('city', row.city),
        ...optional('country', row.country),
      };
    },
  };
}

export type PayoutAccountStore = ReturnType<typeof createPayoutAccountStore>;
