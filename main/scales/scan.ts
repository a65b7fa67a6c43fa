import { baseDataOf, matchesRule, ruleValue, type CompiledRule, type ScaleLabelKind } from './label-rules.js';
import { ean13CheckDigit, isValidEan13 } from './ean13.js';

/** What a scanned scale label says: the item's base code and the value printed in it. */
export interface ScannedLabel {
  kind: ScaleLabelKind;
  /** The product's barcode: the scanned code with the value zeroed and its check digit recomputed. */
  baseCode: string;
  /** Grams for a weight label, cents for a price label. */
  value: number;
}

/**
 * Reads a scanned code with the first rule whose pattern it matches. A code
 * that is not a valid EAN-13 (wrong length, letters, wrong check digit) is no
 * scale label at all.
 */
export function readScaleLabel(code: string, rules: readonly CompiledRule[]): ScannedLabel | undefined {
  if (!isValidEan13(code)) return undefined;
  const rule = rules.find((r) => matchesRule(r, code));
  if (!rule) return undefined;
  const data = baseDataOf(rule, code);
  return { kind: rule.kind, baseCode: data + ean13CheckDigit(data), value: ruleValue(rule, code) };
}

/** Price of a weighed item in cents: price per kilogram x kilograms, rounded half up, exactly. */
export function weighedPrice(pricePerKg: number, grams: number): number {
  return Number((BigInt(pricePerKg) * BigInt(grams) + 500n) / 1000n);
}
