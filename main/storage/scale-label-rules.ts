import type { ScaleLabelKind } from '../scales/label-rules.js';
import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** An organization's own scale-label rule as stored. */
export interface ScaleLabelRuleRow {
  id: string;
  orgId: string;
  position: number;
  kind: ScaleLabelKind;
  pattern: string;
  createdAt: string;
}

interface RawRule {
  id: string;
  org_id: string;
  position: number;
  kind: ScaleLabelKind;
  pattern: string;
  created_at: string;
}

const fromRow = (r: RawRule): ScaleLabelRuleRow => ({
  id: r.id,
  orgId: r.org_id,
  position: r.position,
  kind: r.kind,
  pattern: r.pattern,
  createdAt: r.created_at,
});

export function createScaleLabelRuleStore(db: Db) {
  const ofOrg = db.prepare<[string], RawRule>('SELECT * FROM scale_label_rules WHERE org_id = ? ORDER BY position');
  const nextPosition = db
    .prepare<[string], number>('SELECT coalesce(max(position), 0) + 1 FROM scale_label_rules WHERE org_id = ?')
    .pluck();
  const insert = db.prepare(
    'INSERT INTO scale_label_rules (id, org_id, position, kind, pattern, created_at) VALUES (@id, @orgId, @position, @kind, @pattern, @createdAt)',
  );
  const remove = db.prepare('DELETE FROM scale_label_rules WHERE org_id = ? AND id = ?');

  return {
    /** The organization's rules in the order they are tried. */
    list(orgId: string): ScaleLabelRuleRow[] {
      return ofOrg.all(orgId).map(fromRow);
    },
    /** Appends a rule after the organization's others; returns it as stored. */
    append(rule: Omit<ScaleLabelRuleRow, 'position'>): ScaleLabelRuleRow {
      return immediateTransaction(db, () => {
        const row = { ...rule, position: nextPosition.get(rule.orgId) as number };
        insert.run(row);
        return row;
      });
    },
    /** Whether a rule of that organization was removed. */
    remove(orgId: string, id: string): boolean {
      return remove.run(orgId, id).changes === 1;
    },
  };
}

export type ScaleLabelRuleStore = ReturnType<typeof createScaleLabelRuleStore>;
