import type { ScaleLabel } from '../../shared/api/scale-labels.js';
import { newId } from '../rules/ids.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, NotFound } from '../services/errors.js';
import type { ScaleLabelReader } from '../services/products.js';
import type { Db } from '../storage/database.js';
import { createOrganizationStore } from '../storage/organizations.js';
import { createScaleLabelRuleStore } from '../storage/scale-label-rules.js';
import { compileRule, DEFAULT_RULES, SCALE_LABEL_KINDS, type CompiledRule, type ScaleLabelKind } from './label-rules.js';
import { isValidEan13 } from './ean13.js';
import { readScaleLabel, weighedPrice } from './scan.js';

/** A rule as the CLI shows it, in the order rules are tried. */
export interface ListedRule {
  /** Null for a built-in rule, which cannot be removed. */
  id: string | null;
  kind: ScaleLabelKind;
  pattern: string;
  builtIn: boolean;
}

const DEFAULT_COMPILED = DEFAULT_RULES.map((rule) => compileRule(rule) as CompiledRule);

const isKind = (kind: string): kind is ScaleLabelKind => (SCALE_LABEL_KINDS as readonly string[]).includes(kind);

/**
 * Scale-label barcodes of each organization: its own rules (read from the
 * database on every scan, so a change applies at once) before the built-in ones.
 */
export function createScaleLabels(deps: { db: Db; clock: Clock }) {
  const rules = createScaleLabelRuleStore(deps.db);
  const organizations = createOrganizationStore(deps.db);

  const mustHaveOrg = (orgId: string) => {
    if (!organizations.get(orgId)) throw new NotFound('Organization', orgId);
  };

  const rulesOf = (orgId: string): CompiledRule[] => [
    // Stored rules were checked when added; one that no longer compiles is skipped, not fatal to a scan.
    ...rules.list(orgId).flatMap((row) => {
      const compiled = compileRule(row);
      return 'error' in compiled ? [] : [compiled];
    }),
    ...DEFAULT_COMPILED,
  ];

  const reader: ScaleLabelReader = {
    read(orgId, code) {
      // A code that is no valid EAN-13 (an internal code, a typing slip) needs no rules read.
      if (!isValidEan13(code)) return undefined;
      const label = readScaleLabel(code, rulesOf(orgId));
      if (!label) return undefined;
      return {
        baseCode: label.baseCode,
        labelFor: (product): ScaleLabel =>
          label.kind === 'weight'
            ? { kind: 'weight', grams: label.value, price: weighedPrice(product.price, label.value) }
            : { kind: 'price', price: label.value },
      };
    },
  };

  return {
    reader,
    listRules(orgId: string): ListedRule[] {
      mustHaveOrg(orgId);
      return [
        ...rules.list(orgId).map((r) => ({ id: r.id, kind: r.kind, pattern: r.pattern, builtIn: false })),
        ...DEFAULT_RULES.map((r) => ({ id: null, kind: r.kind, pattern: r.pattern, builtIn: true })),
      ];
    },
    addRule(orgId: string, kind: string, pattern: string): ListedRule {
      mustHaveOrg(orgId);
      if (!isKind(kind)) throw new BadRequest(`kind: must be one of ${SCALE_LABEL_KINDS.join(', ')} (got ${JSON.stringify(kind)})`);
      const compiled = compileRule({ kind, pattern });
      if ('error' in compiled) throw new BadRequest(compiled.error);
      if (rules.list(orgId).some((r) => r.pattern === pattern)) {
        throw new BadRequest(`pattern ${JSON.stringify(pattern)}: the organization already has a rule with this pattern; remove it first`);
      }
      const row = rules.append({ id: newId(), orgId, kind, pattern, createdAt: deps.clock.now().toISOString() });
      return { id: row.id, kind: row.kind, pattern: row.pattern, builtIn: false };
    },
    removeRule(orgId: string, ruleId: string): { removed: 1 } {
      mustHaveOrg(orgId);
      if (!rules.remove(orgId, ruleId)) throw new NotFound('Scale-label rule', ruleId);
      return { removed: 1 };
    },
  };
}

export type ScaleLabels = ReturnType<typeof createScaleLabels>;
