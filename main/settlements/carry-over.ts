import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import type { Db } from '../storage/database.js';
import { immediateTransaction } from '../storage/transactions.js';

/** The tables that say what was settled, parents first. */
const TABLES = ['settlements', 'settlement_amounts', 'settlement_lines', 'settled_orders'] as const;

export type SettledState = Record<(typeof TABLES)[number], Record<string, unknown>[]>;

/**
 * What a database being replaced had settled. A restore puts back an older
 * database; without this, sales settled and paid since the backup would be
 * unsettled again and paid twice. A database too damaged to read gives
 * nothing: a restore is how such a folder is mended.
 */
export function readSettledState(file: string): SettledState | undefined {
  if (!existsSync(file)) return undefined;
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    const present = db.prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'settlements'").pluck().get();
    if (present === undefined) return undefined;
    const open = db;
    const partsWritten = open.prepare<[], string>("SELECT name FROM pragma_table_info('settlements') WHERE name = 'unfinished'").pluck().get() !== undefined;
    // A settlement the replaced server was still writing is not kept: it was never one, and the orders it took are unsettled.
    const finished = (table: (typeof TABLES)[number]) =>
      !partsWritten ? '' : table === 'settlements' ? ' WHERE unfinished = 0' : ` WHERE settlement_id IS NULL OR settlement_id NOT IN (SELECT id FROM settlements WHERE unfinished = 1)`;
    return Object.fromEntries(TABLES.map((table) => [table, open.prepare(`SELECT * FROM ${table}${finished(table)}`).all() as Record<string, unknown>[]])) as SettledState;
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

/**
 * Adds to the restored database what the replaced one had settled and it
 * lacks: settlements keep their ids and numbers, an order's accounted refunds
 * the higher of the two.
 */
export function keepSettledState(db: Db, state: SettledState | undefined): number {
  if (!state) return 0;
  const added = new Set<string>();
  immediateTransaction(db, () => {
    for (const table of TABLES) {
      // Amounts and lines only of the settlements the restored database lacked: it has its own of the others.
      const rows = table === 'settlements' || table === 'settled_orders' ? state[table] : state[table].filter((row) => added.has(row.settlement_id as string));
      if (rows.length === 0) continue;
      const columns = Object.keys(rows[0]!);
      const conflict =
        table === 'settled_orders' ? 'ON CONFLICT (order_id) DO UPDATE SET refunded = max(refunded, excluded.refunded)' : 'ON CONFLICT DO NOTHING';
      const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')}) ${conflict}`);
      for (const row of rows) {
        if (insert.run(row).changes === 1 && table === 'settlements') added.add(row.id as string);
      }
    }
  });
  return added.size;
}
