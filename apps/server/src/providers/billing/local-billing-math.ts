import { type BillingPeriod, type Pricing, planCatalogue, pricingOf } from '@waitlist/contract';

/** The local provider's prices: the operator's plan catalogue (PLANS_JSON, issue 39; the SPEC's by default). */
export const localPrices = (): Pricing => pricingOf(planCatalogue());

export function priceOf(plan: 'starter' | 'growth', period: BillingPeriod): number {
  return localPrices()[plan === 'starter' ? 'STARTER' : 'GROWTH'][period].amount;
}

/**
 * `count` calendar months (monthly) or years (yearly) after `anchor`, in UTC, keeping the anchor's day and
 * clamping it to the month's last day (Jan 31 + 1 month = Feb 28), as Stripe's billing cycle anchor does.
 */
export function addPeriod(anchor: Date, period: BillingPeriod, count = 1): Date {
  const months = anchor.getUTCMonth() + (period === 'monthly' ? count : 12 * count);
  const year = anchor.getUTCFullYear() + Math.floor(months / 12);
  const month = ((months % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      year,
      month,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  );
}

/** The first period boundary counted from `anchor` that falls after `after`. */
export function nextPeriodEnd(anchor: Date, period: BillingPeriod, after: Date): Date {
  for (let count = 1; count < 10_000; count += 1) {
    const end = addPeriod(anchor, period, count);
    if (end > after) return end;
  }
  throw new Error('billing period out of range');
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export interface Proration {
  /** What is charged now, in cents. */
  amount: number;
  /** Unused time on the old price given back (only when the period restarts). */
  credit: number;
  /** Whether the change starts a new period now (monthly → yearly) or keeps the current one. */
  restartsPeriod: boolean;
  remainingSeconds: number;
  periodSeconds: number;
}

/**
 * Proration of a change to a more expensive price (the local provider's formula; Stripe does its own):
 * - same billing period (Starter → Growth, both monthly or both yearly): the period is kept and
 *   amount = round((newPrice − oldPrice) × remainingSeconds / periodSeconds);
 * - a different period (monthly → yearly): a new period starts now and
 *   amount = newPrice − round(oldPrice × remainingSeconds / periodSeconds), the unused time given back.
 */
export function prorate(input: {
  oldPrice: number;
  newPrice: number;
  samePeriod: boolean;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
}): Proration {
  const periodSeconds = Math.max(1, seconds(input.periodEnd) - seconds(input.periodStart));
  const remainingSeconds = Math.min(
    periodSeconds,
    Math.max(0, seconds(input.periodEnd) - seconds(input.now)),
  );
  if (input.samePeriod) {
    const amount = Math.round(((input.newPrice - input.oldPrice) * remainingSeconds) / periodSeconds);
    return { amount: Math.max(0, amount), credit: 0, restartsPeriod: false, remainingSeconds, periodSeconds };
  }
  const credit = Math.round((input.oldPrice * remainingSeconds) / periodSeconds);
  return {
    amount: Math.max(0, input.newPrice - credit),
    credit,
    restartsPeriod: true,
    remainingSeconds,
    periodSeconds,
  };
}
