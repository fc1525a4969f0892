import type { TFunction } from 'i18next';
import { createCustomerI18n, DEFAULT_LOCALE, LOCALES, type Locale, localeFiles } from './i18n.ts';
import type { CustomerWords } from './types.ts';

export { DEFAULT_LOCALE, LOCALES, type Locale } from './i18n.ts';

/** `t` as the catalogue calls it: any key of the resources, with the values to fill in. */
type Render = (key: string, values?: Record<string, string | number>) => string;

/**
 * The messages of one locale as callers use them: a message with a placeholder becomes a function that
 * asks i18next to fill it in ("{{business}}: Thanks…" → `autoAnswer(business)`); one without is a string.
 */
function bind(render: Render, messages: object, path: string): unknown {
  return Object.fromEntries(
    Object.entries(messages).map(([key, value]) => {
      const at = path ? `${path}.${key}` : key;
      if (typeof value !== 'string') return [key, bind(render, value, at)];
      const placeholder = /\{\{(\w+)\}\}/.exec(value)?.[1];
      return [key, placeholder ? (filled: string) => render(at, { [placeholder]: filled }) : render(at)];
    }),
  );
}

function wordsOf(t: TFunction, locale: Locale): CustomerWords {
  const render = t as unknown as Render;
  const { messages, slotTime, ...reading } = localeFiles[locale];
  const { slotTime: _at, ...rendered } = messages;
  return {
    ...reading,
    ...(bind(render, rendered, '') as Pick<CustomerWords, 'texts' | 'templates' | 'join'>),
    slotTime: {
      ...slotTime,
      // The hour ("1:00 p.m." → 1) picks the plural form: "a la 1:00 p.m.", "a las 3:00 p.m.".
      join: (day, clock) => render('slotTime.at', { day, clock, count: Number.parseInt(clock, 10) }),
      forYour: (time, service, staff) =>
        render(staff ? 'slotTime.forYourWith' : 'slotTime.forYour', { time, service, staff: staff ?? '' }),
    },
  };
}

const i18n = createCustomerI18n();
const catalogue = Object.fromEntries(
  LOCALES.map((locale) => [locale, wordsOf(i18n.getFixedT(locale), locale)]),
) as Readonly<Record<Locale, CustomerWords>>;

/** Every word a customer reads or types, in `locale` (the default for an unknown one), rendered by i18next. */
export function customerWords(locale: Locale = DEFAULT_LOCALE): CustomerWords {
  return catalogue[locale] ?? catalogue[DEFAULT_LOCALE];
}

/** The business's name as a text in `locale` writes it: an unnamed business is "Your business" / "Tu negocio". */
export function businessNameIn(named: string | null | undefined, locale: Locale = DEFAULT_LOCALE): string {
  return named || customerWords(locale).texts.unnamedBusiness;
}
