import type { BarcodeAlias, Product, ProductUpdate } from '../../../shared/api/products.js';
import { MINIMUM_AGES, type MinimumAge } from '../../../shared/minimum-age.js';
import type { TaxCategory } from '../../../shared/tax.js';
import type { StaffTextKey } from '../texts.js';
import { dayBoundary, parseFrancs } from './form-values.js';

/** The product form's fields as typed, before they are read. */
export interface DraftInput {
  name: string;
  price: string;
  barcode: string;
  aliases: { code: string; quantity: string; price: string }[];
  taxCategory: TaxCategory;
  category: string;
  deposit: string;
  minimumAge: string;
  salePrice: string;
  saleFrom: string;
  saleTo: string;
  saleStop: boolean;
}

/** A field's problem, named by the form field's id suffix. */
export interface DraftProblem {
  field: string;
  text: StaffTextKey;
}

interface Draft {
  name: string;
  price: number;
  barcode: string;
  aliases: BarcodeAlias[];
  taxCategory: TaxCategory;
  category: string;
  deposit: number | undefined;
  minimumAge: MinimumAge | undefined;
  salePrice: number | undefined;
  saleFrom: string | undefined;
  saleTo: string | undefined;
  saleStop: boolean;
}

function readDraft(input: DraftInput, problems: DraftProblem[]): Draft {
  const francs = (field: string, text: string) => {
    const cents = parseFrancs(text);
    if (Number.isNaN(cents)) problems.push({ field, text: 'catalogBadFrancs' });
    return Number.isNaN(cents) ? undefined : cents;
  };
  const name = input.name.trim();
  if (name === '') problems.push({ field: 'name', text: 'catalogNameMissing' });
  const price = francs('price', input.price);
  if (price === undefined && !problems.some((p) => p.field === 'price')) problems.push({ field: 'price', text: 'catalogPriceMissing' });
  const aliases = input.aliases
    .filter((a) => a.code.trim() !== '')
    .map((a, i): BarcodeAlias => {
      const quantity = Number(a.quantity.replace(',', '.') || '1');
      if (!(quantity > 0)) problems.push({ field: `alias-quantity-${i}`, text: 'catalogBadQuantity' });
      const pack = francs(`alias-price-${i}`, a.price);
      return { code: a.code.trim().toLowerCase(), quantity, ...(pack === undefined ? {} : { price: pack }) };
    });
  const age = Number(input.minimumAge);
  return {
    name,
    price: price ?? 0,
    barcode: input.barcode.trim().toLowerCase(),
    aliases,
    taxCategory: input.taxCategory,
    category: input.category,
    deposit: francs('deposit', input.deposit),
    minimumAge: (MINIMUM_AGES as readonly number[]).includes(age) ? (age as MinimumAge) : undefined,
    salePrice: francs('sale-price', input.salePrice),
    saleFrom: dayBoundary(input.saleFrom, 'from'),
    saleTo: dayBoundary(input.saleTo, 'to'),
    saleStop: input.saleStop,
  };
}

const sameAliases = (a: BarcodeAlias[], b: BarcodeAlias[]) =>
  JSON.stringify(a.map(({ code, quantity, price }) => [code, quantity, price])) === JSON.stringify(b.map(({ code, quantity, price }) => [code, quantity, price]));

/**
 * The write that turns `product` (none for a new one) into what the form says:
 * only the fields that changed. The API removes no field, so emptying one
 * writes its neutral value: no deposit is 0, no age limit is
 * `ageRestriction: false`, and an emptied sale price ends the sale now.
 */
export function productWrite(product: Product | undefined, input: DraftInput, now: Date): { write: ProductUpdate; problems: DraftProblem[] } {
  const problems: DraftProblem[] = [];
  const draft = readDraft(input, problems);
  const before: Partial<Product> = product ?? {};
  const write: ProductUpdate = {};
  if (draft.name !== before.name) write.name = draft.name;
  if (draft.price !== before.price) write.price = draft.price;
  if (draft.barcode !== (before.barcode ?? '')) write.barcode = draft.barcode;
  if (!sameAliases(draft.aliases, before.barcodeAliases ?? [])) write.barcodeAliases = draft.aliases;
  if (draft.taxCategory !== before.taxCategory) write.taxCategory = draft.taxCategory;
  if (draft.category !== (before.category ?? '')) write.category = draft.category;
  if (draft.deposit !== before.depositProduct && (draft.deposit ?? 0) !== (before.depositProduct ?? 0)) write.depositProduct = draft.deposit ?? 0;
  const ageBefore = before.ageRestriction ? before.minimumAge : undefined;
  if (draft.minimumAge !== ageBefore) Object.assign(write, draft.minimumAge === undefined ? { ageRestriction: false } : { minimumAge: draft.minimumAge });
  if (draft.salePrice !== undefined && draft.salePrice !== before.salePrice) write.salePrice = draft.salePrice;
  if (draft.saleFrom !== undefined && draft.saleFrom !== before.salePriceDateFrom) write.salePriceDateFrom = draft.saleFrom;
  if (draft.saleTo !== undefined && draft.saleTo !== before.salePriceDateTo) write.salePriceDateTo = draft.saleTo;
  const saleRunning = before.salePriceDateTo === undefined || before.salePriceDateTo > now.toISOString();
  if (draft.salePrice === undefined && before.salePrice !== undefined && saleRunning) write.salePriceDateTo = now.toISOString();
  if (draft.saleStop !== (before.saleStop ?? false)) write.saleStop = draft.saleStop;
  return { write, problems };
}
