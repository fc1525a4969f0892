import { createCustomerI18n, type Locale, localeFiles, localeOf } from '@waitlist/contract';
import { type ReactNode, useState } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';

/**
 * The join page's and the poster's language (issue 28): the browser's first language the catalogue has
 * (navigator.languages: es, es-US, es-MX… → Spanish), English otherwise; the customer can switch.
 */
export function browserLocale(languages: readonly string[] = navigator.languages ?? []): Locale {
  return localeOf(languages);
}

/**
 * The page's own i18next instance (react-i18next) on the contract's catalogue: every word below it follows
 * the customer's language, and switching re-renders them.
 */
export function JoinLanguage({ children }: { children: ReactNode }) {
  const [i18n] = useState(() => createCustomerI18n(browserLocale()));
  return <I18nextProvider i18n={i18n}>{children}</I18nextProvider>;
}

/**
 * The English join words by their text, built once, so a refusal worded in English (the shared schema's
 * messages, or an older server's answer) is shown in the page's language.
 */
const englishKeys = new Map<string, string>();
(function collect(messages: object, path: string) {
  for (const [key, value] of Object.entries(messages)) {
    if (typeof value === 'string') englishKeys.set(value, `${path}.${key}`);
    else collect(value, `${path}.${key}`);
  }
})(localeFiles.en.messages.join, 'join');

/**
 * The page's words: `t` (typed keys of the catalogue), its language and the switch, and `translate` for a
 * message that may come worded in English.
 */
export function useJoinWords() {
  const { t, i18n } = useTranslation();
  const locale = i18n.resolvedLanguage as Locale;
  const translate = (message: string) => {
    const key = englishKeys.get(message);
    return key ? t(key as never) : message;
  };
  return { t, locale, setLocale: (next: Locale) => i18n.changeLanguage(next), translate };
}

/** Each language named in itself, so either reader finds theirs. */
const NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

/** The visible English | Español switch. */
export function LanguageSwitch() {
  const { locale, setLocale } = useJoinWords();
  return (
    <fieldset className="join__languages" aria-label="Language / Idioma">
      {(Object.keys(NAMES) as Locale[]).map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          className="join__language"
          aria-pressed={code === locale}
          onClick={() => setLocale(code)}
        >
          {NAMES[code]}
        </button>
      ))}
    </fieldset>
  );
}
