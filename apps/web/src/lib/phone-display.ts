import { formatPhone } from '@waitlist/contract';

/**
 * A stored E.164 number as people read it. Every +1 number reads (212) 555-0143, including the 555
 * test range the local phone provider hands out, which libphonenumber treats as invalid and would show
 * as +1 555 555 0100; other countries in international format.
 */
export function displayPhone(e164: string): string {
  const northAmerican = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  if (northAmerican) return `(${northAmerican[1]}) ${northAmerican[2]}-${northAmerican[3]}`;
  return formatPhone(e164);
}
