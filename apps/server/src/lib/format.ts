import { cardBrandName } from '@waitlist/contract';

/** Money and dates as owners read them in emails, invoices and the local billing pages (UTC, en-US). */
export function formatMoney(cents: number, currency = 'usd'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    cents / 100,
  );
}

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
/** e.g. "Dec 23, 2026". */
export function formatDate(date: Date): string {
  return dateFormat.format(date);
}

/** Card brands as Stripe spells them ("visa") to how people read them ("Visa"). */
export function formatCardBrand(brand: string): string {
  return cardBrandName(brand);
}

/** A customer's first name, as texts and pushes greet them ("Ann" for "Ann Lee"). */
export const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;
