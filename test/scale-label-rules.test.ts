import { describe, expect, it } from 'vitest';
import { ean13CheckDigit, isValidEan13 } from '../main/scales/ean13.js';
import { compileRule, DEFAULT_RULES, type CompiledRule, type ScaleLabelRule } from '../main/scales/label-rules.js';
import { readScaleLabel, weighedPrice } from '../main/scales/scan.js';

const compile = (rule: ScaleLabelRule) => {
  const compiled = compileRule(rule);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled;
};
const defaults: CompiledRule[] = DEFAULT_RULES.map(compile);

describe('EAN-13 check digit', () => {
  it.each([
    ['400638133393', '1'],
    ['761234567890', '0'],
    ['211234500000', '8'],
    ['000000000000', '0'],
  ])('of %s is %s', (data, digit) => {
    expect(ean13CheckDigit(data)).toBe(digit);
    expect(isValidEan13(data + digit)).toBe(true);
  });

  it.each(['4006381333932', '400638133393', '40063813339311', '400638133393a', ''])('refuses %j', (code) => {
    expect(isValidEan13(code)).toBe(false);
  });
});

describe('compileRule', () => {
  it.each<[ScaleLabelRule, string]>([
    [{ kind: 'weight', pattern: '21.....' }, 'one value group'],
    [{ kind: 'weight', pattern: '21.....{}' }, 'at least one N or D'],
    [{ kind: 'weight', pattern: '21.....{NNDDD}0' }, 'covers 13 digits'],
    [{ kind: 'weight', pattern: '21...{NN}{DD}' }, 'one value group'],
    [{ kind: 'weight', pattern: '21....{NDDDD}' }, 'at most 3 decimals'],
    [{ kind: 'price', pattern: '23.....{NNDDD}' }, 'at most 2 decimals'],
    [{ kind: 'price', pattern: '2x.....{NNNDD}' }, 'digits and dots'],
    [{ kind: 'price', pattern: '23.....{DDNNN}' }, 'digits and dots'],
  ])('refuses %j naming the problem', (rule, message) => {
    expect(compileRule(rule)).toEqual({ error: expect.stringContaining(message) });
  });

  it('takes apart the built-in weight rule', () => {
    expect(compile({ kind: 'weight', pattern: '21.....{NNDDD}' })).toMatchObject({ valueStart: 7, valueLength: 5, decimals: 3 });
  });
});

describe('readScaleLabel with the built-in rules', () => {
  it.each([
    ['2112345015002', { kind: 'weight', baseCode: '2112345000008', value: 1500 }],
    ['2112345000008', { kind: 'weight', baseCode: '2112345000008', value: 0 }],
    ['2112345999999', { kind: 'weight', baseCode: '2112345000008', value: 99999 }],
    ['2398765019954', { kind: 'price', baseCode: '2398765000006', value: 1995 }],
    ['2398765000006', { kind: 'price', baseCode: '2398765000006', value: 0 }],
  ])('reads %s', (code, label) => {
    expect(readScaleLabel(code, defaults)).toEqual(label);
  });

  it.each([
    ['wrong check digit', '2112345015003'],
    ['another prefix', '2212345015009'],
    ['twelve digits', '211234501500'],
    ['a letter', '21123450150a2'],
  ])('reads nothing from a code with %s', (_what, code) => {
    expect(readScaleLabel(code, defaults)).toBeUndefined();
  });
});

describe('readScaleLabel with organization rules', () => {
  it('uses the first matching rule, so an own rule redefines a built-in prefix', () => {
    const own = compile({ kind: 'price', pattern: '21.....{NNNDD}' });
    expect(readScaleLabel('2112345015002', [own, ...defaults])).toMatchObject({ kind: 'price', value: 1500 });
  });

  it.each<[ScaleLabelRule, string, number]>([
    [{ kind: 'weight', pattern: '28....{NNNDD}' }, '2812340123459', 12340],
    [{ kind: 'weight', pattern: '29{NN}' }, '2905123456780', 5000],
    [{ kind: 'price', pattern: '02.....{NNNN}' }, '0212345012345', 12300],
    [{ kind: 'price', pattern: '24{NNNND}.....' }, '2412345123456', 123450],
  ])('%j reads %s as %i', (rule, code, value) => {
    expect(isValidEan13(code)).toBe(true);
    expect(readScaleLabel(code, [compile(rule)])?.value).toBe(value);
  });

  it('keeps digits after the value group as part of the item code', () => {
    const rule = compile({ kind: 'price', pattern: '24{NNNND}.....' });
    expect(readScaleLabel('2412345123456', [rule])?.baseCode).toBe('2400000123453');
  });
});

describe('weighedPrice', () => {
  it.each([
    [2490, 1500, 3735],
    [2490, 0, 0],
    [1000, 1, 1],
    [999, 500, 500],
    [999, 499, 499],
    [1, 499, 0],
    [1, 500, 1],
    [2490, 99999, 248998],
    [9_007_199_254, 99999, 900_710_918_201],
  ])('%i cents/kg x %i g = %i cents', (price, grams, cents) => {
    expect(weighedPrice(price, grams)).toBe(cents);
  });
});
