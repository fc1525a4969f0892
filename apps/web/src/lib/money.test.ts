import { describe, expect, it } from 'vitest';
import { formatCents } from './money.ts';

describe('money from integer cents', () => {
  it('shows US dollars with two decimals and thousands separators by default', () => {
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(2900)).toBe('$29.00');
    expect(formatCents(3333)).toBe('$33.33');
    expect(formatCents(123450)).toBe('$1,234.50');
  });

  it('drops ".00" on whole amounts when asked, and keeps both digits otherwise', () => {
    expect(formatCents(2900, { wholeDollars: true })).toBe('$29');
    expect(formatCents(27840, { wholeDollars: true })).toBe('$278.40');
    expect(formatCents(2320, { wholeDollars: true })).toBe('$23.20');
    expect(formatCents(5, { wholeDollars: true })).toBe('$0.05');
    expect(formatCents(120000, { wholeDollars: true })).toBe('$1,200');
  });

  it('takes the currency code in either case, as the API and the contract spell it', () => {
    expect(formatCents(3250, { currency: 'usd' })).toBe('$32.50');
    expect(formatCents(3250, { currency: 'EUR' })).toBe('€32.50');
    expect(formatCents(4900, { currency: 'eur', wholeDollars: true })).toBe('€49');
  });

  it('writes the amount in the locale it is given', () => {
    expect(formatCents(8550, { locale: 'de-DE' })).toBe('85,50\u00a0$');
    expect(formatCents(8550, { locale: 'en-US' })).toBe('$85.50');
  });

  it('keeps the sign of a refund', () => {
    expect(formatCents(-1250)).toBe('-$12.50');
  });
});
