import { customerWords, DEFAULT_LOCALE, type Locale } from './catalogue.ts';

/**
 * The two formatters of a locale in a time zone, built once per pair: building an Intl.DateTimeFormat costs
 * far more than formatting with one (issue 16).
 */
const formatters = new Map<string, { day: Intl.DateTimeFormat; clock: Intl.DateTimeFormat }>();

function formattersOf(locale: Locale, timeZone: string) {
  const key = `${locale} ${timeZone}`;
  let pair = formatters.get(key);
  if (!pair) {
    const { intlLocale, slotTime } = customerWords(locale);
    pair = {
      day: new Intl.DateTimeFormat(intlLocale, { ...slotTime.day, timeZone }),
      clock: new Intl.DateTimeFormat(intlLocale, { ...slotTime.clock, timeZone }),
    };
    formatters.set(key, pair);
  }
  return pair;
}

/**
 * How a slot reads in a text to a customer, in the business's time zone: "Tue, Nov 24 at 3:00 PM". Some ICU
 * versions put a narrow no-break space before "PM"; it is written as a plain space, because one character
 * outside GSM-7 would send the whole text as UCS-2 (70 characters a segment instead of 160).
 */
export function formatSlotTime(instant: Date, timeZone: string, locale: Locale = DEFAULT_LOCALE): string {
  const { day, clock } = formattersOf(locale, timeZone);
  const text = customerWords(locale).slotTime.join(day.format(instant), clock.format(instant));
  return text.replace(/[\u00a0\u202f]/g, ' ');
}
