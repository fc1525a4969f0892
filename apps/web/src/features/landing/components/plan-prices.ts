import {
  DEFAULT_PLAN_CATALOGUE,
  type PlanCatalogue,
  type PlanLimits,
  type PlanType,
  pricingOf,
} from '@waitlist/contract';
import { useConfig } from '../../../lib/config.ts';
import { formatCents } from '../../../lib/money.ts';

/** One paid plan as the first visit shows it, every number read from the operator's plan catalogue. */
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

function limits(plan: PlanLimits): string[] {
  return [
    plan.waitlistSize === null ? 'Unlimited waitlist' : `Waitlist up to ${plan.waitlistSize} customers`,
    plan.alertsPerDay === null
      ? 'Unlimited cancellation alerts'
      : `${plural(plan.alertsPerDay, 'cancellation alert')} a day`,
    ...(plan.textsIncluded === null ? [] : [`${plan.textsIncluded} text segments a month included`]),
  ];
}

/** Starter and Growth, cheapest first: what the server charges (the catalogue it serves on GET /config). */
export function planOffers(catalogue: PlanCatalogue): PlanOffer[] {
  const pricing = pricingOf(catalogue);
  const offer = (type: PlanType, plan: PlanLimits): PlanOffer => {
    const monthly = pricing[type].monthly.amount;
    const yearly = pricing[type].yearly.amount;
    return {
      type,
      name: plan.name.replace(/ Plan$/, ''),
      monthly,
      yearlyPerMonth: Math.round(yearly / 12 / 100) * 100,
      yearlySaving: monthly > 0 ? Math.max(0, Math.round((1 - yearly / (12 * monthly)) * 100)) : 0,
      features: [...limits(plan), 'Your own dedicated text number', 'Earnings dashboard'],
    };
  };
  return [offer('STARTER', catalogue.starter), offer('GROWTH', catalogue.growth)].sort(
    (a, b) => a.monthly - b.monthly,
  );
}

/** The plans as the operator sells them; the SPEC's until GET /config answers (or if it cannot). */
export function usePlanOffers(): PlanOffer[] {
  return planOffers(useConfig().data?.plans ?? DEFAULT_PLAN_CATALOGUE);
}

/** The lowest monthly price, for "then from $29/month". */
export const lowestMonthly = (offers: PlanOffer[]) => Math.min(...offers.map((plan) => plan.monthly));

/** Cents to dollars, without ".00" for whole amounts ($29, $23.20). */
export const formatPrice = (cents: number, currency = 'usd'): string =>
  formatCents(cents, { currency, wholeDollars: true });
