/**
 * The ages a product can require. Swiss law sells beer, wine and cider from
 * 16, spirits (and tobacco in most cantons) from 18.
 */
export const MINIMUM_AGES = [16, 18] as const;

export type MinimumAge = (typeof MINIMUM_AGES)[number];

/** What `ageRestriction` alone means: the spec's field predates the two ages, and 18 is the safe reading. */
export const DEFAULT_MINIMUM_AGE: MinimumAge = 18;

interface AgeFields {
  ageRestriction?: boolean | undefined;
  minimumAge?: number | undefined;
}

/**
 * The age a buyer must have reached on the day of the sale, or undefined when
 * the product has none. `ageRestriction` decides whether there is a limit;
 * `minimumAge` only says which one, so a stray `minimumAge` beside
 * `ageRestriction: false` restricts nothing.
 */
export function minimumAgeOf(product: AgeFields): number | undefined {
  return product.ageRestriction === true ? (product.minimumAge ?? DEFAULT_MINIMUM_AGE) : undefined;
}

/** The product with `minimumAge` present exactly when `ageRestriction` is true: the one form stored and served. */
export function withMinimumAge<T extends AgeFields>(product: T): T {
  const age = minimumAgeOf(product);
  if (age === undefined) {
    if (product.minimumAge === undefined) return product;
    const { minimumAge: _dropped, ...rest } = product;
    return rest as T;
  }
  return product.minimumAge === age ? product : { ...product, minimumAge: age };
}
