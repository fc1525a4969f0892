import { billingMessages } from '@waitlist/contract';
import { PaymentError } from './payment-error.ts';

/**
 * The local provider's test cards: Stripe's well-known test numbers, with the same outcomes. Any other
 * number is refused, so a real card number never reaches (or is stored by) the local provider.
 */
type TestCardOutcome = 'succeeds' | 'declined' | 'insufficient_funds' | 'charges_fail';
const TEST_CARDS: Record<string, { brand: string; outcome: TestCardOutcome }> = {
  '4242424242424242': { brand: 'visa', outcome: 'succeeds' },
  '4000056655665556': { brand: 'visa', outcome: 'succeeds' },
  '5555555555554444': { brand: 'mastercard', outcome: 'succeeds' },
  '378282246310005': { brand: 'amex', outcome: 'succeeds' },
  '6011111111111117': { brand: 'discover', outcome: 'succeeds' },
  /** Attaches, but every later charge fails: a renewal goes past_due, an upgrade is refused. */
  '4000000000000341': { brand: 'visa', outcome: 'charges_fail' },
  '4000000000000002': { brand: 'visa', outcome: 'declined' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
};

/** The last four digits of the card that attaches but cannot be charged (all that is stored of it). */
export const FAILING_CARD_LAST4 = '0341';

export interface TestCardInput {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

/** What the local provider keeps of a card: brand, last four digits and expiry, nothing else. */
export interface StoredCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Checks a card the way Stripe does, in the same order (number, expiry, security code, then the bank's
 * answer), and returns only what may be stored. Throws a PaymentError whose message the owner sees.
 */
export function validateTestCard(card: TestCardInput, now: Date): StoredCard {
  const digits = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    throw new PaymentError(billingMessages.incorrectNumber, 'invalid_card');
  }
  const known = TEST_CARDS[digits];
  if (!known) throw new PaymentError(billingMessages.testCardsOnly, 'invalid_card');

  const expYear = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  const thisYear = now.getUTCFullYear();
  if (
    !Number.isInteger(card.expMonth) ||
    card.expMonth < 1 ||
    card.expMonth > 12 ||
    expYear > thisYear + 50
  ) {
    throw new PaymentError(billingMessages.invalidExpiry, 'invalid_card');
  }
  // A card is valid through the last day of its expiry month.
  if (expYear < thisYear || (expYear === thisYear && card.expMonth < now.getUTCMonth() + 1)) {
    throw new PaymentError(billingMessages.expiredCard, 'invalid_card');
  }
  const cvcDigits = known.brand === 'amex' ? 4 : 3;
  if (!new RegExp(`^\\d{${cvcDigits}}$`).test(card.cvc.trim())) {
    throw new PaymentError(billingMessages.incorrectCvc, 'invalid_card');
  }
  if (known.outcome === 'declined') throw new PaymentError(billingMessages.cardDeclined, 'card_declined');
  if (known.outcome === 'insufficient_funds') {
    throw new PaymentError(billingMessages.insufficientFunds, 'insufficient_funds');
  }
  return { brand: known.brand, last4: digits.slice(-4), expMonth: card.expMonth, expYear };
}

/**
 * Why a stored card cannot be charged at `now`, or null when it can: the 0341 test card attaches but every
 * charge fails, and a card that has expired since it was added is refused too.
 */
export function chargeRefusal(card: StoredCard, now: Date): string | null {
  if (card.last4 === FAILING_CARD_LAST4) return billingMessages.cardDeclined;
  const thisYear = now.getUTCFullYear();
  if (card.expYear < thisYear || (card.expYear === thisYear && card.expMonth < now.getUTCMonth() + 1)) {
    return billingMessages.expiredCard;
  }
  return null;
}
