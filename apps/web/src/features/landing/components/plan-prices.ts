import { ALERTS_PER_DAY, PLAN_PRICES, type PlanType, planLabels, WAITLIST_CAPS } from '@waitlist/contract';
import { formatCents } from '../../../lib/money.ts';

/** One paid plan as the first visit shows it, every number read from the contract's prices and limits. */
export type PlanOffer = {
  type: PlanType;
  name: string;
  /** Cents a month, billed monthly. */
  monthly: number;
  /** Cents a month when billed yearly (the yearly price over 12, in whole units, as the plan cards show it). */
  yearlyPerMonth: number;
  /** Whole percent saved by paying yearly. */
  yearlySaving: number;
  features: string[];
};

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

function offer(type: PlanType, plan: 'starter' | 'growth'): PlanOffer {
  const monthly = PLAN_PRICES[type].monthly.amount;
  const yearly = PLAN_PRICES[type].yearly.amount;
  return {
    type,
    name: planLabels[plan].replace(/ Plan$/, ''),
    monthly,
    yearlyPerMonth: Math.round(yearly / 12 / 100) * 100,
    yearlySaving: monthly > 0 ? Math.max(0, Math.round((1 - yearly / (12 * monthly)) * 100)) : 0,
    features: [
      `Waitlist up to ${WAITLIST_CAPS[plan]} customers`,
      `${plural(ALERTS_PER_DAY[plan], 'cancellation alert')} a day`,
      'Your own dedicated text number',
      'Earnings dashboard',
    ],
  };
}

/** Starter and Growth, cheapest first: what the server charges (contract PLAN_PRICES), not a copy of it. */
export const planOffers: PlanOffer[] = [offer('STARTER', 'starter'), offer('GROWTH', 'growth')];

/** The lowest monthly price, for "then from $29/month". */
export const lowestMonthly = Math.min(...planOffers.map((plan) => plan.monthly));

/** Cents to dollars, without ".00" for whole amounts ($29, $23.20). */
export const formatPrice = (cents: number, currency = PLAN_PRICES.STARTER.monthly.currency): string =>
  formatCents(cents, { currency, wholeDollars: true });
