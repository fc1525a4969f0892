import i18next, { type i18n } from 'i18next';
import { en } from './en.ts';
import { es } from './es.ts';
import type { LocaleFile } from './types.ts';

/** The languages customers are written to. Adding one: its file (`xx.ts: LocaleFile`), then the line below. */
export const localeFiles = { en, es } as const satisfies Record<string, LocaleFile>;

export type Locale = keyof typeof localeFiles;
export const LOCALES = Object.keys(localeFiles) as readonly Locale[];
export const DEFAULT_LOCALE: Locale = 'en';

/**
 * An i18next instance holding every locale's messages (issue 28), set to `lng`. The server keeps one and asks
 * it for a fixed language per text; the join page makes its own and switches it when the customer does.
 * Loaded at once (the resources are in the bundle), so `t` works as soon as this returns.
 */
export function createCustomerI18n(lng: Locale = DEFAULT_LOCALE): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(
      LOCALES.map((locale) => [locale, { translation: localeFiles[locale].messages }]),
    ),
    lng,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: LOCALES,
    // "es-MX" and "es-419" are Spanish: the language part decides.
    nonExplicitSupportedLngs: true,
    initAsync: false,
    // Texts are plain text, and React escapes what it renders; a name is never read as markup or as a key.
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  return instance;
}

const chooser = createCustomerI18n();

/**
 * The first of a browser's languages (navigator.languages, most preferred first) that the catalogue has, by
 * i18next's own matching ("es-MX" → es), or the default when none is.
 */
export function localeOf(languages: readonly string[]): Locale {
  const utils = chooser.services.languageUtils;
  const best = utils.getBestMatchFromCodes([...languages]);
  const language = best ? utils.getLanguagePartFromCode(best) : DEFAULT_LOCALE;
  return (LOCALES as readonly string[]).includes(language) ? (language as Locale) : DEFAULT_LOCALE;
}
