import { describe, expect, it } from 'vitest';
import { customerWords, LOCALES } from './catalogue.ts';
import { formatSlotTime } from './slot-time.ts';

const SAMPLE_BUSINESS = 'Studio Lumen';
/** The contract is typed without Node's or the DOM's globals; vitest runs in Node, which has `console`. */
declare const console: { log: (message: string) => void };

/**
 * Every leaf of a catalogue as "path: kind", walking nested objects; a function is called with a sample
 * business name (a text or a page line) and must give a non-empty string; a list must not be empty.
 */
function leaves(value: unknown, path = ''): string[] {
  if (typeof value === 'function') {
    const result = (value as (...args: string[]) => unknown)(SAMPLE_BUSINESS, '3:30 PM');
    return [`${path}: ${typeof result === 'string' && result.trim() !== '' ? 'function → text' : 'BROKEN'}`];
  }
  if (Array.isArray(value)) return [`${path}: ${value.length > 0 ? 'list' : 'EMPTY list'}`];
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, inner]) => leaves(inner, path ? `${path}.${key}` : key));
  return [`${path}: ${typeof value === 'string' && value.trim() === '' ? 'EMPTY' : typeof value}`];
}

function differences(a: unknown, b: unknown): string[] {
  const left = new Set(leaves(a));
  const right = new Set(leaves(b));
  return [
    ...[...left].filter((leaf) => !right.has(leaf)).map((leaf) => `only in the first: ${leaf}`),
    ...[...right].filter((leaf) => !left.has(leaf)).map((leaf) => `only in the second: ${leaf}`),
  ];
}

describe('the customer-words catalogue (issue 28)', () => {
  it('has English and Spanish', () => {
    expect(LOCALES).toEqual(['en', 'es']);
  });

  it('every language has exactly the keys English has, nested ones and texts included, none empty', () => {
    for (const locale of LOCALES) {
      expect(differences(customerWords('en'), customerWords(locale))).toEqual([]);
      expect(leaves(customerWords(locale)).filter((leaf) => /BROKEN|EMPTY/.test(leaf))).toEqual([]);
    }
  });

  it('the check fails when a key exists in one language and not the other, however deep', () => {
    const en = customerWords('en');
    const { poster: _dropped, ...joinWithoutPoster } = en.join;
    expect(differences(en, { ...en, join: joinWithoutPoster })).toContain(
      'only in the first: join.poster.headline: string',
    );
    const extra = { ...en, texts: { ...en.texts, extra: (business: string) => `${business}: hi` } };
    expect(differences(en, extra)).toEqual(['only in the second: texts.extra: function → text']);
    const emptied = { ...en, join: { ...en.join, page: { ...en.join.page, lead: '' } } };
    expect(differences(en, emptied)).toContain('only in the second: join.page.lead: EMPTY');
  });

  it('the Spanish words are not the English ones (no line left untranslated, brand-free lines aside)', () => {
    const en = leaves(customerWords('en')).length;
    const same: string[] = [];
    const walk = (a: unknown, b: unknown, path: string) => {
      if (typeof a === 'function' && typeof b === 'function') {
        const [x, y] = [a(SAMPLE_BUSINESS, '3:30 PM'), b(SAMPLE_BUSINESS, '3:30 PM')];
        if (x === y) same.push(path);
      } else if (typeof a === 'string' && a === b) same.push(path);
      else if (a && b && typeof a === 'object' && !Array.isArray(a))
        for (const key of Object.keys(a)) walk((a as never)[key], (b as never)[key], `${path}.${key}`);
    };
    walk(customerWords('en'), customerWords('es'), '');
    // Identical on purpose: Intl's option objects (the same fields, formatted per language by Intl).
    expect(
      same.filter((path) => !path.startsWith('.slotTime.day') && !path.startsWith('.slotTime.clock')),
    ).toEqual([]);
    expect(en).toBeGreaterThan(80);
  });

  it('counts the customer-facing lines of each language the same (printed for the closing note)', () => {
    const lines = (locale: 'en' | 'es') =>
      leaves(customerWords(locale)).filter(
        (leaf) => !leaf.startsWith('slotTime') && !leaf.startsWith('intlLocale'),
      );
    const words = (locale: 'en' | 'es') => {
      const { keywords, claim, backOut, languageWords } = customerWords(locale);
      return [...Object.values(keywords), ...Object.values(claim), backOut, languageWords].flat().length;
    };
    const texts = (locale: 'en' | 'es') => lines(locale).filter((leaf) => !leaf.endsWith(': list')).length;
    console.log(
      `customer-facing texts and lines: en ${texts('en')}, es ${texts('es')}; words read: en ${words('en')}, es ${words('es')}`,
    );
    expect(texts('es')).toBe(texts('en'));
    expect(texts('en')).toBe(67);
  });

  it('keeps every placeholder of every Spanish template', () => {
    const en = customerWords('en').templates;
    const es = customerWords('es').templates;
    const placeholders = (body: string) => (body.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(en) as (keyof typeof en)[])
      expect(placeholders(es[key]), key).toEqual(placeholders(en[key]));
  });

  it('writes slot times in Spanish from Intl es-US, in the business time zone', () => {
    const tuesday = new Date('2026-11-24T20:30:00Z');
    expect(formatSlotTime(tuesday, 'America/New_York', 'es')).toBe('mar, 24 de nov a las 3:30 p.m.');
    expect(formatSlotTime(tuesday, 'America/Los_Angeles', 'es')).toBe('mar, 24 de nov a las 12:30 p.m.');
    // One o'clock is singular; the morning is "a.m."; Wednesday and Saturday carry an accent.
    expect(formatSlotTime(new Date('2026-11-25T18:05:00Z'), 'America/New_York', 'es')).toBe(
      'mié, 25 de nov a la 1:05 p.m.',
    );
    expect(formatSlotTime(new Date('2026-11-28T14:00:00Z'), 'America/Chicago', 'es')).toBe(
      'sáb, 28 de nov a las 8:00 a.m.',
    );
    expect(formatSlotTime(tuesday, 'America/New_York')).toBe('Tue, Nov 24 at 3:30 PM');
  });
});
