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

const brandNames: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};
/** Card brands as Stripe spells them ("visa") to how people read them ("Visa"). */
export function formatCardBrand(brand: string): string {
  return brandNames[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}
