import { cardBrandName, type PaymentMethod } from '@waitlist/contract';

export const brandName = (brand: string) => (brand ? cardBrandName(brand) : 'Card');

/** "Visa •••• 4242" */
export const cardLabel = (card: Pick<PaymentMethod, 'brand' | 'last4'>) =>
  `${brandName(card.brand)} •••• ${card.last4}`;

/** MM/YY */
export const cardExpiry = (card: Pick<PaymentMethod, 'exp_month' | 'exp_year'>) =>
  `${String(card.exp_month).padStart(2, '0')}/${String(card.exp_year % 100).padStart(2, '0')}`;

/** A card whose expiry month has passed. */
export const isCardExpired = (card: Pick<PaymentMethod, 'exp_month' | 'exp_year'>, now: Date) =>
  card.exp_year < now.getFullYear() ||
  (card.exp_year === now.getFullYear() && card.exp_month < now.getMonth() + 1);

/** Card number as typed, grouped: 4-6-5 for American Express (34/37), else groups of 4; at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  if (/^3[47]/.test(digits)) {
    return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** MM/YY as typed: the slash comes after the month. */
export function formatCardExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}
