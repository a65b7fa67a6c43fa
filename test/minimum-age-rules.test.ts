import { describe, expect, it } from 'vitest';
import { minimumAgeOf, withMinimumAge } from '../shared/minimum-age.js';

describe('the age a product requires', () => {
  it.each([
    [{}, undefined],
    [{ ageRestriction: false }, undefined],
    [{ ageRestriction: false, minimumAge: 16 }, undefined],
    [{ ageRestriction: true }, 18],
    [{ ageRestriction: true, minimumAge: 16 }, 16],
    [{ ageRestriction: true, minimumAge: 18 }, 18],
  ])('%j requires %s', (product, age) => {
    expect(minimumAgeOf(product)).toBe(age);
  });

  it.each([
    [{ name: 'a', ageRestriction: undefined }, { name: 'a', ageRestriction: undefined }],
    [{ name: 'a', ageRestriction: true }, { name: 'a', ageRestriction: true, minimumAge: 18 }],
    [{ name: 'a', ageRestriction: true, minimumAge: 16 }, { name: 'a', ageRestriction: true, minimumAge: 16 }],
    [{ name: 'a', ageRestriction: false, minimumAge: 16 }, { name: 'a', ageRestriction: false }],
    [{ name: 'a', minimumAge: 16 }, { name: 'a' }] as [{ name: string; minimumAge?: number }, object],
  ])('keeps %j as %j, the form a pulled record is compared in', (product, stored) => {
    expect(withMinimumAge(product)).toEqual(stored);
  });
});
