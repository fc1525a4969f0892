/** Card brands as Stripe spells them ("visa") to how people read them ("Visa"): both apps show these. */
export const CARD_BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** A brand's display name; an unknown brand is capitalised ("elo" → "Elo"). */
export function cardBrandName(brand: string): string {
  return CARD_BRAND_NAMES[brand.toLowerCase()] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}
