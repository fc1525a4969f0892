import { en } from './en.ts';
import { es } from './es.ts';
import type { CustomerWords } from './types.ts';

/** The languages customers are written to. Adding one: its file (`xx.ts: CustomerWords`), then the two lines below. */
export type Locale = 'en' | 'es';

const catalogue: Readonly<Record<Locale, CustomerWords>> = { en, es };

export const LOCALES = Object.keys(catalogue) as readonly Locale[];
export const DEFAULT_LOCALE: Locale = 'en';

/** Every word a customer reads or types, in `locale` (the default for an unknown one). */
export function customerWords(locale: Locale = DEFAULT_LOCALE): CustomerWords {
  return catalogue[locale] ?? catalogue[DEFAULT_LOCALE];
}
