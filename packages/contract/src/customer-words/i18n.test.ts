import { describe, expect, it } from 'vitest';
import { customerWords } from './catalogue.ts';
import { createCustomerI18n, LOCALES, localeFiles, localeOf } from './i18n.ts';

/** Every message key of a resource tree with its placeholders; plural forms ("at_one", "at_other") count as one key. */
function keysOf(messages: object, path = ''): Map<string, string> {
  const keys = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const at = `${path}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`;
    if (typeof value === 'string') keys.set(at, (value.match(/\{\{\w+\}\}/g) ?? []).sort().join(' '));
    else for (const [inner, holes] of keysOf(value, `${at}.`)) keys.set(inner, holes);
  }
  return keys;
}

function missing(from: object, to: object): string[] {
  const [a, b] = [keysOf(from), keysOf(to)];
  return [...a].filter(([key, holes]) => b.get(key) !== holes).map(([key, holes]) => `${key} (${holes})`);
}

describe('the catalogue as i18next resources (issue 28)', () => {
  it('each language has every message key of the other, with the same placeholders', () => {
    for (const a of LOCALES)
      for (const b of LOCALES) expect(missing(localeFiles[a].messages, localeFiles[b].messages)).toEqual([]);
    expect(keysOf(localeFiles.es.messages).size).toBeGreaterThan(60);
  });

  it('the check fails on a key missing in one language, and on a placeholder lost in translation', () => {
    const { es } = localeFiles;
    const { help: _dropped, ...texts } = es.messages.texts;
    expect(missing(localeFiles.en.messages, { ...es.messages, texts })).toEqual([
      'texts.help ({{business}})',
    ]);
    const lost = { ...es.messages, texts: { ...es.messages.texts, joinFull: 'Lo sentimos, está llena.' } };
    expect(missing(localeFiles.en.messages, lost)).toEqual(['texts.joinFull ({{business}})']);
  });

  it('i18next fills a business name in as written: never read as a key, a placeholder, markup or a pattern', () => {
    const name = 'Cuts $& Co {{business}} $t(texts.help) <b>';
    expect(customerWords('en').texts.joinFull(name)).toBe(
      `${name}: Sorry, the waitlist is full right now. Please try again later.`,
    );
    expect(customerWords('es').join.page.formLabel(name)).toBe(`Únete a la lista de espera de ${name}`);
  });

  it('picks "a la" or "a las" by the hour with Intl.PluralRules (1 is singular in Spanish, 12 and 11 are not)', () => {
    const t = createCustomerI18n('es').t;
    const at = (clock: string) =>
      t('slotTime.at', { day: 'lun, 7 de dic', clock, count: Number.parseInt(clock, 10) });
    expect(at('1:30 p.m.')).toBe('lun, 7 de dic a la 1:30 p.m.');
    expect(at('11:00 a.m.')).toBe('lun, 7 de dic a las 11:00 a.m.');
    expect(at('12:15 p.m.')).toBe('lun, 7 de dic a las 12:15 p.m.');
    expect(new Intl.PluralRules('es').select(1)).toBe('one');
    expect(customerWords('en').slotTime.join('Mon, Dec 7', '1:30 PM')).toBe('Mon, Dec 7 at 1:30 PM');
  });

  it('an instance switches language as the join page does, and falls back to English for a missing key', () => {
    const i18n = createCustomerI18n('en');
    expect(i18n.t('join.page.submit')).toBe('Join the waitlist');
    void i18n.changeLanguage('es');
    expect(i18n.t('join.page.submit')).toBe('Unirme a la lista de espera');
    i18n.addResource('en', 'translation', 'join.page.extra', 'Only in English');
    expect(i18n.t('join.page.extra')).toBe('Only in English');
  });

  it("chooses the browser's first language the catalogue has, by i18next's matching", () => {
    expect(localeOf(['es-MX', 'en-US', 'en'])).toBe('es');
    expect(localeOf(['es-419'])).toBe('es');
    expect(localeOf(['fr-FR', 'es', 'en'])).toBe('es');
    expect(localeOf(['en-GB', 'es'])).toBe('en');
    expect(localeOf(['de-DE', 'fr'])).toBe('en');
    expect(localeOf([])).toBe('en');
  });
});
