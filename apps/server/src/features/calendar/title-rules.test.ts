import { describe, expect, it } from 'vitest';
import { foldText, isExcludedTitle, matchTitle, type TitleRule } from './title-rules.ts';

const rules: TitleRule[] = [
  { contains: 'cut', serviceId: 'svc-cut', priceCents: 4500 },
  { contains: 'priya', staffId: 'staff-priya' },
  { contains: 'colour', serviceId: 'svc-colour', staffId: 'staff-any', priceCents: 9000 },
  { contains: 'cut', serviceId: 'svc-other', priceCents: 1 },
];

describe('matchTitle', () => {
  it('combines rules field by field, the first rule to set a field winning', () => {
    expect(matchTitle('Cut – Priya', rules)).toEqual({
      serviceId: 'svc-cut',
      staffId: 'staff-priya',
      priceCents: 4500,
      matchedRules: [0, 1, 3],
    });
    expect(matchTitle('Colour with Priya', rules)).toEqual({
      serviceId: 'svc-colour',
      staffId: 'staff-priya',
      priceCents: 9000,
      matchedRules: [1, 2],
    });
  });

  it('ignores case and accents on both sides, and matches inside words', () => {
    expect(matchTitle('HAIRCUT', rules)?.serviceId).toBe('svc-cut');
    expect(matchTitle('Priyá', rules)?.staffId).toBe('staff-priya');
    expect(matchTitle('Coupe – Zoë', [{ contains: 'zoe', staffId: 'zoe' }])?.staffId).toBe('zoe');
    expect(matchTitle('Café', [{ contains: 'CAFÉ', serviceId: 'c' }])?.serviceId).toBe('c');
  });

  it('returns null when nothing matches, and an empty rule never matches', () => {
    expect(matchTitle('Beard trim', rules)).toBeNull();
    expect(matchTitle('Anything', [{ contains: '  ', serviceId: 'x' }])).toBeNull();
    expect(matchTitle('Anything', [])).toBeNull();
  });

  it('keeps a price of 0 cents set by the first rule', () => {
    expect(matchTitle('Free cut', [{ contains: 'free', priceCents: 0 }, ...rules])?.priceCents).toBe(0);
  });
});

describe('isExcludedTitle and foldText', () => {
  it('matches whole words only, without case or accents', () => {
    expect(isExcludedTitle('Lunch', ['lunch'])).toBe(true);
    expect(isExcludedTitle('team-LUNCH!', ['Lunch'])).toBe(true);
    expect(isExcludedTitle('Lunchbox', ['lunch'])).toBe(false);
    expect(isExcludedTitle('Almuerzo', ['lunch'])).toBe(false);
    expect(isExcludedTitle('Día bloqueado', ['dia'])).toBe(true);
    expect(isExcludedTitle('Diana', ['dia'])).toBe(false);
    expect(isExcludedTitle('Blocked (a+b)', ['(a+b)'])).toBe(true);
    expect(isExcludedTitle('Anything', [''])).toBe(false);
  });

  it('folds case, accents and spacing', () => {
    expect(foldText('  Crème   Brûlée ')).toBe('creme brulee');
  });
});
