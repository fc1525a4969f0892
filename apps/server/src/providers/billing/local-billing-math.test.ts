import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { addPeriod, nextPeriodEnd, priceOf, prorate } from './local-billing-math.ts';
import { chargeRefusal, passesLuhn, validateTestCard } from './local-cards.ts';
import { PaymentError } from './payment-error.ts';

const at = (iso: string) => new Date(iso);

describe('billing periods', () => {
  it('adds calendar months and years in UTC, clamping to the last day of a short month', () => {
    expect(addPeriod(at('2026-11-23T10:00:00Z'), 'monthly')).toEqual(at('2026-12-23T10:00:00Z'));
    expect(addPeriod(at('2026-12-23T10:00:00Z'), 'monthly')).toEqual(at('2027-01-23T10:00:00Z'));
    expect(addPeriod(at('2027-01-31T00:00:00Z'), 'monthly')).toEqual(at('2027-02-28T00:00:00Z'));
    expect(addPeriod(at('2028-01-31T00:00:00Z'), 'monthly')).toEqual(at('2028-02-29T00:00:00Z'));
    expect(addPeriod(at('2028-02-29T12:00:00Z'), 'yearly')).toEqual(at('2029-02-28T12:00:00Z'));
    expect(addPeriod(at('2026-11-23T10:00:00Z'), 'monthly', 14)).toEqual(at('2028-01-23T10:00:00Z'));
  });

  it('keeps the anchor day across renewals (Jan 31 → Feb 28 → Mar 31)', () => {
    const anchor = at('2027-01-31T09:00:00Z');
    const february = nextPeriodEnd(anchor, 'monthly', anchor);
    expect(february).toEqual(at('2027-02-28T09:00:00Z'));
    expect(nextPeriodEnd(anchor, 'monthly', february)).toEqual(at('2027-03-31T09:00:00Z'));
  });
});

describe('proration', () => {
  const period = { periodStart: at('2026-11-23T10:00:00Z'), periodEnd: at('2026-12-23T10:00:00Z') };

  it('same period: the price difference for the remaining time, rounded to the cent', () => {
    expect(
      prorate({
        oldPrice: 2900,
        newPrice: 7900,
        samePeriod: true,
        ...period,
        now: at('2026-12-03T10:00:00Z'),
      }),
    ).toEqual({
      amount: 3333,
      credit: 0,
      restartsPeriod: false,
      remainingSeconds: 1_728_000,
      periodSeconds: 2_592_000,
    });
    // At the very start the whole difference, at the very end nothing.
    expect(
      prorate({ oldPrice: 2900, newPrice: 7900, samePeriod: true, ...period, now: period.periodStart })
        .amount,
    ).toBe(5000);
    expect(
      prorate({ oldPrice: 2900, newPrice: 7900, samePeriod: true, ...period, now: period.periodEnd }).amount,
    ).toBe(0);
  });

  it('monthly → yearly: the new price less the unused time on the old one', () => {
    const result = prorate({
      oldPrice: priceOf('growth', 'monthly'),
      newPrice: priceOf('growth', 'yearly'),
      samePeriod: false,
      ...period,
      now: at('2026-12-03T10:00:00Z'),
    });
    // credit = round(7900 × 20/30) = round(5266.67) = 5267; charge = 75840 − 5267
    expect(result).toMatchObject({ credit: 5267, amount: 70573, restartsPeriod: true });
  });
});

describe('test cards', () => {
  it('checks the Luhn digit', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('378282246310005')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
  });

  it('keeps only brand, last four and expiry; amex needs a 4-digit CVC', () => {
    const now = at('2026-11-23T10:00:00Z');
    expect(
      validateTestCard({ number: '3782 822463 10005', expMonth: 1, expYear: 2030, cvc: '1234' }, now),
    ).toEqual({
      brand: 'amex',
      last4: '0005',
      expMonth: 1,
      expYear: 2030,
    });
    const refusal = (() => {
      try {
        validateTestCard({ number: '378282246310005', expMonth: 1, expYear: 2030, cvc: '123' }, now);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(PaymentError);
    expect((refusal as PaymentError).message).toBe(billingMessages.incorrectCvc);
  });

  it('refuses charges on the 0341 card and on a card that has expired since it was added', () => {
    const card = { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2026 };
    expect(chargeRefusal(card, at('2026-12-31T23:00:00Z'))).toBeNull();
    expect(chargeRefusal(card, at('2027-01-01T00:00:00Z'))).toBe(billingMessages.expiredCard);
    expect(chargeRefusal({ ...card, last4: '0341' }, at('2026-12-01T00:00:00Z'))).toBe(
      billingMessages.cardDeclined,
    );
  });
});
