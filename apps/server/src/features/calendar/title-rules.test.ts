import { describe, expect, it } from 'vitest';
import { foldText, isExcludedTitle, matchTitle, type TitleRule } from './title-rules.ts';

/** Ids as the catalogue makes them (UUIDs), named for reading. */
const ids = Object.fromEntries(
  ['svc-cut', 'staff-priya', 'svc-colour', 'staff-any', 'svc-other', 'zoe', 'c', 'x'].map((name, n) => [
    name,
    `00000000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`,
  ]),
) as Record<string, string>;

const rules: TitleRule[] = [
  { contains: 'cut', serviceId: ids['svc-cut'], priceCents: 4500 },
  { contains: 'priya', staffId: ids['staff-priya'] },
  { contains: 'colour', serviceId: ids['svc-colour'], staffId: ids['staff-any'], priceCents: 9000 },
  { contains: 'cut', serviceId: ids['svc-other'], priceCents: 1 },
];

describe('matchTitle', () => {
  it('combines rules field by field, the first rule to set a field winning', () => {
    expect(matchTitle('Cut – Priya', rules)).toEqual({
      serviceId: ids['svc-cut'],
      staffId: ids['staff-priya'],
      priceCents: 4500,
      matchedRules: [0, 1, 3],
    });
    expect(matchTitle('Colour with Priya', rules)).toEqual({
      serviceId: ids['svc-colour'],
      staffId: ids['staff-priya'],
      priceCents: 9000,
      matchedRules: [1, 2],
    });
  });

  it('ignores case and accents on both sides, and matches inside words', () => {
    expect(matchTitle('HAIRCUT', rules)?.serviceId).toBe(ids['svc-cut']);
    expect(matchTitle('Priyá', rules)?.staffId).toBe(ids['staff-priya']);
    expect(matchTitle('Coupe – Zoë', [{ contains: 'zoe', staffId: ids.zoe }])?.staffId).toBe(ids.zoe);
    expect(matchTitle('Café', [{ contains: 'CAFÉ', serviceId: ids.c }])?.serviceId).toBe(ids.c);
  });

  it('returns null when nothing matches, and an empty rule never matches', () => {
    expect(matchTitle('Beard trim', rules)).toBeNull();
    expect(matchTitle('Anything', [{ contains: '  ', serviceId: ids.x }])).toBeNull();
    expect(matchTitle('Anything', [])).toBeNull();
  });

  it('ignores an id that is no id (a rule saved before rules were checked against the catalogue, issue 38)', () => {
    const saved = [
      { contains: 'cut', serviceId: 'not-a-service', staffId: "'; drop table services; --" },
      { contains: 'cut', serviceId: ids['svc-cut'] },
    ];
    expect(matchTitle('Cut', saved)).toEqual({ serviceId: ids['svc-cut'], matchedRules: [0, 1] });
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
