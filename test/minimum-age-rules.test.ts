import { describe, expect, it } from 'vitest';
import { Cart } from '../renderer/kiosk/cart.js';
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

describe('the ages of a kiosk cart', () => {
  const product = (id: string, fields: { ageRestriction?: boolean; minimumAge?: 16 | 18 } = {}) =>
    ({ id, name: id, price: 100, taxCategory: '8.1', barcode: id, imageUrl: '', deleted: false, createdate: '', lastupdate: '', instance: 'o', ...fields }) as const;
  const cartOf = (...products: ReturnType<typeof product>[]) => {
    const cart = new Cart();
    for (const p of products) cart.addUnit(p);
    return cart;
  };
  const milk = product('milk');
  const beer = product('beer', { ageRestriction: true, minimumAge: 16 });
  const kirsch = product('kirsch', { ageRestriction: true });

  it.each([
    [[milk], undefined],
    [[milk, beer], 16],
    [[beer, kirsch], 18],
    [[kirsch, milk], 18],
  ])('%# asks for %s', (products, age) => {
    const cart = cartOf(...products);
    expect(cart.minimumAge).toBe(age);
    expect(cart.needsAgeCheck).toBe(age !== undefined);
  });

  it.each([
    [17, ['kirsch']],
    [16, ['kirsch']],
    [15, ['beer', 'kirsch']],
    [18, []],
    [0, ['beer', 'kirsch']],
  ])('takes out for a customer of %i the lines %j', (age, refused) => {
    const cart = cartOf(milk, beer, kirsch);
    expect(cart.removeAbove(age).map((l) => l.product.id)).toEqual(refused);
    expect(cart.lines.map((l) => l.product.id)).toEqual(['milk', 'beer', 'kirsch'].filter((id) => !refused.includes(id)));
  });
});
