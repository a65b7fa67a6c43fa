/**
 * Scale-label rules in the style of Odoo's barcode nomenclature. A pattern
 * describes the 12 data digits of an EAN-13 from the left (the check digit is
 * never part of it): a digit must be itself, `.` is any digit, and one group
 * `{N…D…}` holds the value, N its whole digits and D its decimals. Positions
 * after the pattern belong to the item code.
 */
export const SCALE_LABEL_KINDS = ['weight', 'price'] as const;
export type ScaleLabelKind = (typeof SCALE_LABEL_KINDS)[number];

export interface ScaleLabelRule {
  kind: ScaleLabelKind;
  pattern: string;
}

/** A rule taken apart: what each position must be, and where the value is. */
export interface CompiledRule extends ScaleLabelRule {
  /** One entry per position: the required digit, or undefined for any digit. */
  positions: (string | undefined)[];
  valueStart: number;
  valueLength: number;
  decimals: number;
}

/** Used after an organization's own rules, so that its rules can redefine a prefix. */
export const DEFAULT_RULES: readonly ScaleLabelRule[] = [
  { kind: 'weight', pattern: '21.....{NNDDD}' },
  { kind: 'price', pattern: '23.....{NNNDD}' },
];

/** Decimals a value may have: grams are thousandths of a kilogram, cents hundredths. */
const MAX_DECIMALS: Record<ScaleLabelKind, number> = { weight: 3, price: 2 };
const UNIT: Record<ScaleLabelKind, string> = { weight: 'kilograms', price: 'currency units' };

/** Parses a pattern; the error names what is wrong with it. */
export function compileRule(rule: ScaleLabelRule): CompiledRule | { error: string } {
  const match = /^([\d.]*)\{(N*)(D*)\}([\d.]*)$/.exec(rule.pattern);
  if (!match) {
    return { error: `pattern ${JSON.stringify(rule.pattern)} must be digits and dots with one value group such as {NNDDD}, e.g. "21.....{NNDDD}"` };
  }
  const [, before = '', whole = '', decimals = '', after = ''] = match;
  const valueLength = whole.length + decimals.length;
  if (valueLength === 0) return { error: `pattern ${JSON.stringify(rule.pattern)}: the value group {…} must hold at least one N or D` };
  const length = before.length + valueLength + after.length;
  if (length > 12) {
    return { error: `pattern ${JSON.stringify(rule.pattern)} covers ${length} digits; at most 12 (the 13th is the check digit)` };
  }
  if (decimals.length > MAX_DECIMALS[rule.kind]) {
    return {
      error: `pattern ${JSON.stringify(rule.pattern)}: a ${rule.kind} value is in ${UNIT[rule.kind]} with at most ${MAX_DECIMALS[rule.kind]} decimals (D)`,
    };
  }
  const literal = (text: string) => [...text].map((c) => (c === '.' ? undefined : c));
  return {
    ...rule,
    positions: [...literal(before), ...Array<undefined>(valueLength).fill(undefined), ...literal(after)],
    valueStart: before.length,
    valueLength,
    decimals: decimals.length,
  };
}

export function matchesRule(rule: CompiledRule, code: string): boolean {
  return rule.positions.every((digit, i) => digit === undefined || code[i] === digit);
}

/** The rule's value in the label: grams for weight, cents for price. */
export function ruleValue(rule: CompiledRule, code: string): number {
  const digits = Number(code.slice(rule.valueStart, rule.valueStart + rule.valueLength));
  return digits * 10 ** (MAX_DECIMALS[rule.kind] - rule.decimals);
}

/** The 12 data digits with the value set to zeros: the item's own code without its check digit. */
export function baseDataOf(rule: CompiledRule, code: string): string {
  const end = rule.valueStart + rule.valueLength;
  return code.slice(0, rule.valueStart) + '0'.repeat(rule.valueLength) + code.slice(end, 12);
}
