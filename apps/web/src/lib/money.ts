/** How an amount of money is shown. */
export type MoneyFormat = {
  /** ISO 4217 code in either case ('usd' as the API sends it, or 'USD'); US dollars by default. */
  currency?: string;
  /** Whole amounts without ".00" ($29, yet $23.20), as prices are quoted; otherwise always two decimals ($0.00). */
  wholeDollars?: boolean;
  /** The reader's locale; US English by default, the language the product's prices are written in. */
  locale?: string;
};

/** Integer cents (how the API sends money) as money a person reads: "$1,234.50". */
export function formatCents(cents: number, format: MoneyFormat = {}): string {
  const { currency = 'USD', wholeDollars = false, locale = 'en-US' } = format;
  const digits = wholeDollars
    ? { minimumFractionDigits: cents % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 }
    : {};
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    ...digits,
  }).format(cents / 100);
}
