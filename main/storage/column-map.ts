/** How an API field is kept in its SQLite column. */
export type ColumnKind = 'text' | 'number' | 'bool' | 'json';

/** API field name -> [column, kind]. */
export type ColumnMap = Record<string, readonly [column: string, kind: ColumnKind]>;

type Row = Record<string, unknown>;

function encode(kind: ColumnKind, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (kind === 'bool') return value ? 1 : 0;
  if (kind === 'json') return JSON.stringify(value);
  return value;
}

function decode(kind: ColumnKind, value: unknown): unknown {
  if (kind === 'bool') return value === 1;
  if (kind === 'json') return JSON.parse(value as string) as unknown;
  return value;
}

/**
 * The one place where a table's columns map to API fields and back: an absent
 * field is a NULL column, and a NULL column is an absent field.
 */
export function columnMapping(map: ColumnMap) {
  const entries = Object.entries(map);
  return {
    columns: entries.map(([, [column]]) => column),
    toRow(record: object): Row {
      const source = record as Row;
      const row: Row = {};
      for (const [field, [column, kind]] of entries) row[column] = encode(kind, source[field]);
      return row;
    },
    fromRow(row: Row): Row {
      const out: Row = {};
      for (const [field, [column, kind]] of entries) {
        if (row[column] !== null && row[column] !== undefined) out[field] = decode(kind, row[column]);
      }
      return out;
    },
    /**
     * The same from a raw statement's row: an array holding `columns` in order.
     * better-sqlite3 builds arrays in half the time it builds objects of many
     * keys, which is most of the cost of a long page.
     */
    fromRaw(raw: readonly unknown[]): Row {
      const out: Row = {};
      for (let i = 0; i < entries.length; i++) {
        const value = raw[i];
        if (value !== null && value !== undefined) out[entries[i]![0]] = decode(entries[i]![1][1], value);
      }
      return out;
    },
  };
}

/** `INSERT` of every listed column from named parameters of the same name. */
export function insertSql(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`;
}

/** `UPDATE` of every listed column but the keys, for one record of one organization. */
export function replaceSql(table: string, columns: readonly string[]): string {
  const set = columns.filter((c) => c !== 'id' && c !== 'org_id').map((c) => `${c} = @${c}`);
  return `UPDATE ${table} SET ${set.join(', ')} WHERE id = @id AND org_id = @org_id`;
}
