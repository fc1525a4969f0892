import { FALLBACK_PRICING } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { localPricing, makeSubscription, unixNoon } from '../../../test/billing-fixtures.ts';
import { makeUser } from '../../../test/fixtures.ts';
import { accountBadges, trialBadge } from './badges.ts';
import { nextBillingDate, timestampToDate, trialDaysRemaining } from './billing-time.ts';
import { cardExpiry, formatCardExpiry, formatCardNumber, isCardExpired } from './cards.ts';
import { changeTiming } from './plans.ts';
import {
  formatMoney,
  monthlyEquivalent,
  perMonthPrice,
  planSavingPercent,
  toggleSavingLabel,
  yearlySavingPercent,
} from './pricing.ts';

const DAY = 86_400_000;

describe('yearly saving (computed, issue 4: one figure on the toggle and the cards)', () => {
  it('is 1 − yearly / (12 × monthly), rounded to whole percent', () => {
    expect(yearlySavingPercent(2900, 27840)).toBe(20);
    expect(yearlySavingPercent(7900, 75840)).toBe(20);
    expect(yearlySavingPercent(1000, 9000)).toBe(25);
    expect(yearlySavingPercent(2900, 26100)).toBe(25);
    expect(yearlySavingPercent(3000, 28900)).toBe(20); // 19.72… rounds to 20
  });

  it('is 0 when yearly is 12 × monthly (the SPEC fallback prices), and never negative', () => {
    expect(yearlySavingPercent(2900, 34800)).toBe(0);
    expect(yearlySavingPercent(2900, 40000)).toBe(0);
    expect(yearlySavingPercent(0, 1000)).toBe(0);
  });

  it('labels the toggle with the same figure, "up to" when the plans differ, nothing when 0', () => {
    expect(toggleSavingLabel(localPricing)).toBe('Save 20%');
    expect(planSavingPercent(localPricing, 'STARTER')).toBe(20);
    // Issue 27: the fallback carries the same saving, so the toggle says the same without the server.
    expect(toggleSavingLabel(FALLBACK_PRICING)).toBe('Save 20%');
    const mixed = {
      ...localPricing,
      GROWTH: { ...localPricing.GROWTH, yearly: { amount: 71100, currency: 'usd' } },
    };
    expect(planSavingPercent(mixed, 'GROWTH')).toBe(25);
    expect(toggleSavingLabel(mixed)).toBe('Save up to 25%');
  });
});

describe('prices', () => {
  it('show yearly as yearly / 12, rounded', () => {
    expect(monthlyEquivalent(27840)).toBe(2300); // $23.20 → $23
    expect(monthlyEquivalent(75840)).toBe(6300);
    expect(monthlyEquivalent(34800)).toBe(2900);
    expect(monthlyEquivalent(94800)).toBe(7900);
    expect(monthlyEquivalent(28200)).toBe(2400); // $23.50 → $24
    expect(perMonthPrice(localPricing, 'GROWTH', 'monthly')).toBe(7900);
    expect(perMonthPrice(localPricing, 'GROWTH', 'yearly')).toBe(6300);
  });

  it('format cents without .00 for whole amounts', () => {
    expect(formatMoney(2900)).toBe('$29');
    expect(formatMoney(27840)).toBe('$278.40');
    expect(formatMoney(3250, 'usd')).toBe('$32.50');
  });
});

describe('timestamps (SPEC §9: below about 4.1 billion is seconds)', () => {
  it('reads small numbers as seconds and large ones as milliseconds', () => {
    const seconds = unixNoon(2030, 3, 15);
    expect(timestampToDate(seconds)?.toISOString()).toBe('2030-03-15T12:00:00.000Z');
    expect(timestampToDate(seconds * 1000)?.toISOString()).toBe('2030-03-15T12:00:00.000Z');
    expect(timestampToDate(4_099_999_999)?.getUTCFullYear()).toBe(2099);
    expect(timestampToDate(4_100_000_000)?.getUTCFullYear()).toBe(1970);
  });

  it('reads ISO and numeric strings, and nothing from empty values', () => {
    expect(timestampToDate('2030-01-08T00:00:00.000Z')?.toISOString()).toBe('2030-01-08T00:00:00.000Z');
    expect(timestampToDate(String(unixNoon(2030, 3, 15)))?.toISOString()).toBe('2030-03-15T12:00:00.000Z');
    expect(timestampToDate(null)).toBeNull();
    expect(timestampToDate(0)).toBeNull();
    expect(timestampToDate('')).toBeNull();
    expect(timestampToDate('not a date')).toBeNull();
  });
});

describe('next billing date', () => {
  it('is the period end when there is one', () => {
    expect(nextBillingDate(makeSubscription())?.toISOString()).toBe('2030-03-15T12:00:00.000Z');
  });

  it('falls back to created + 30 days (monthly) or 365 days (yearly), seconds or milliseconds', () => {
    const created = unixNoon(2030, 1, 1);
    expect(nextBillingDate({ current_period_end: 0, created, billingPeriod: 'monthly' })?.toISOString()).toBe(
      '2030-01-31T12:00:00.000Z',
    );
    expect(
      nextBillingDate({ current_period_end: null, created, billingPeriod: 'yearly' })?.toISOString(),
    ).toBe('2031-01-01T12:00:00.000Z');
    expect(nextBillingDate({ created: created * 1000, billingPeriod: 'monthly' })?.toISOString()).toBe(
      '2030-01-31T12:00:00.000Z',
    );
    expect(nextBillingDate({ current_period_end: 0, created: 0 })).toBeNull();
  });
});

describe('trial days remaining (SPEC §4)', () => {
  const now = new Date('2030-01-05T12:00:00.000Z');

  it('counts the days to trialEndDate, a part day as a day', () => {
    expect(trialDaysRemaining(new Date(now.getTime() + 3 * DAY).toISOString(), now)).toBe(3);
    expect(trialDaysRemaining(new Date(now.getTime() + 2.5 * DAY).toISOString(), now)).toBe(3);
    expect(trialDaysRemaining(new Date(now.getTime() + 60_000).toISOString(), now)).toBe(1);
  });

  it('is 0, never less, once the trial has ended; null when unknown', () => {
    expect(trialDaysRemaining(now.toISOString(), now)).toBe(0);
    expect(trialDaysRemaining(new Date(now.getTime() - 4 * DAY).toISOString(), now)).toBe(0);
    expect(trialDaysRemaining(null, now)).toBeNull();
  });
});

describe('badges (SPEC §4 variants)', () => {
  const now = new Date('2030-01-05T12:00:00.000Z');
  const inDays = (days: number) => new Date(now.getTime() + days * DAY).toISOString();

  it('Free Trial with the days left, then Expired', () => {
    expect(trialBadge(inDays(5), now)).toEqual({ label: 'Free Trial · 5 days left', tone: 'info' });
    expect(trialBadge(inDays(0.2), now)).toEqual({ label: 'Free Trial · 1 day left', tone: 'info' });
    expect(trialBadge(inDays(-1), now)).toEqual({ label: 'Expired', tone: 'danger' });
  });

  it('adds Text Number Verification Pending while the number is pending', () => {
    const user = makeUser({ trialEndDate: inDays(2), plivoNumberStatus: 'pending' });
    expect(accountBadges(user, null, now).map((badge) => badge.label)).toEqual([
      'Free Trial · 2 days left',
      'Text Number Verification Pending',
    ]);
    expect(
      accountBadges(makeUser({ trialEndDate: inDays(2), plivoNumberStatus: 'verified' }), null, now),
    ).toHaveLength(1);
  });

  it('shows the paid subscription status instead of the trial', () => {
    const user = makeUser({ subscriptionPlan: 'starter', subscriptionStatus: 'active' });
    expect(accountBadges(user, makeSubscription(), now)).toEqual([{ label: 'Active', tone: 'success' }]);
    expect(accountBadges(user, makeSubscription({ cancel_at_period_end: true }), now)[0]!.label).toBe(
      'Cancels at period end',
    );
    expect(accountBadges(user, makeSubscription({ status: 'past_due' }), now)[0]).toEqual({
      label: 'Past Due',
      tone: 'danger',
    });
  });
});

describe('when a plan change applies (mirrors the service rules)', () => {
  const starterMonthly = { plan: 'starter', billingPeriod: 'monthly' } as const;
  const growthMonthly = { plan: 'growth', billingPeriod: 'monthly' } as const;
  const starterYearly = { plan: 'starter', billingPeriod: 'yearly' } as const;

  it('from the trial: full price now', () => {
    expect(changeTiming(null, starterMonthly, localPricing)).toBe('now_full');
  });
  it('to a more expensive price: prorated now; to a cheaper one: at period end; same: nothing', () => {
    expect(changeTiming(starterMonthly, growthMonthly, localPricing)).toBe('now_prorated');
    expect(changeTiming(starterMonthly, starterYearly, localPricing)).toBe('now_prorated');
    expect(changeTiming(growthMonthly, starterMonthly, localPricing)).toBe('period_end');
    expect(changeTiming(starterYearly, starterMonthly, localPricing)).toBe('period_end');
    expect(changeTiming(starterMonthly, starterMonthly, localPricing)).toBe('none');
  });
});

describe('card fields', () => {
  it('space the number as it is typed (4-6-5 for American Express)', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424')).toBe('4242 4');
    expect(formatCardNumber('4242 42x42')).toBe('4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
  });

  it('put the slash in MM/YY', () => {
    expect(formatCardExpiry('1')).toBe('1');
    expect(formatCardExpiry('12')).toBe('12');
    expect(formatCardExpiry('1234')).toBe('12/34');
    expect(formatCardExpiry('12/345')).toBe('12/34');
  });

  it('show and judge the expiry', () => {
    expect(cardExpiry({ exp_month: 4, exp_year: 2031 })).toBe('04/31');
    const now = new Date('2030-05-10T12:00:00.000Z');
    expect(isCardExpired({ exp_month: 4, exp_year: 2030 }, now)).toBe(true);
    expect(isCardExpired({ exp_month: 5, exp_year: 2030 }, now)).toBe(false);
  });
});
