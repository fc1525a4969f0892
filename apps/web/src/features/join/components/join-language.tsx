import { customerWords, type Locale } from '@waitlist/contract';
import { useState } from 'react';

/**
 * The join page's and the poster's language (issue 28): the browser's first English or Spanish preference
 * (navigator.languages: es, es-US, es-MX… → Spanish), English otherwise; the customer can switch.
 */
export function browserLocale(languages: readonly string[] = navigator.languages ?? []): Locale {
  for (const language of languages) {
    const code = language.toLowerCase();
    if (code.startsWith('es')) return 'es';
    if (code.startsWith('en')) return 'en';
  }
  return 'en';
}

export function useJoinLocale() {
  return useState<Locale>(() => browserLocale());
}

/** Each language named in itself, so either reader finds theirs. */
const NAMES: Record<Locale, string> = { en: 'English', es: 'Español' };

/**
 * The page's words in `locale`, and a refusal's English words (the schema's, or an older server's) put in it:
 * a message the English catalogue holds is given in `locale` when that one has it.
 */
export function joinWordsIn(locale: Locale) {
  const words = customerWords(locale).join;
  const english = customerWords('en').join;
  const inLocale = new Map<string, string>();
  const pairs = (from: object, to: object) => {
    for (const [key, value] of Object.entries(from)) {
      const other = (to as Record<string, unknown>)[key];
      if (typeof value === 'string' && typeof other === 'string') inLocale.set(value, other);
    }
  };
  pairs(english, words);
  pairs(english.page, words.page);
  pairs(english.personCheck, words.personCheck);
  return { words, translate: (message: string) => inLocale.get(message) ?? message };
}

/** The visible English | Español switch. */
export function LanguageSwitch({ locale, onChange }: { locale: Locale; onChange: (locale: Locale) => void }) {
  return (
    <fieldset className="join__languages" aria-label="Language / Idioma">
      {(Object.keys(NAMES) as Locale[]).map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          className="join__language"
          aria-pressed={code === locale}
          onClick={() => onChange(code)}
        >
          {NAMES[code]}
        </button>
      ))}
    </fieldset>
  );
}
