import { type BillingPeriod, type Pricing, planCatalogue, pricingOf } from '@waitlist/contract';
import type Stripe from 'stripe';
import type { Clock } from '../../lib/clock.ts';
import { BadRequest } from '../../lib/errors.ts';
import type { PlanChange } from './index.ts';
import { call } from './stripe-client.ts';

type Plan = PlanChange['plan'];
export type PriceIds = { monthly?: string | undefined; yearly?: string | undefined };

const PRICING_CACHE_MS = 5 * 60 * 1000;
const PLAN_KEYS = { starter: 'STARTER', growth: 'GROWTH' } as const;

/** The Stripe price ids we sell (STRIPE_PRICE_*), and their amounts as Stripe states them. */
export interface StripePrices {
  /** False when a plan has no price id for a period: that plan can't be sold. */
  readonly allConfigured: boolean;
  priceIdFor(plan: Plan, period: BillingPeriod): string;
  /** The plan a price id sells, or null for a price that isn't ours. */
  planOfPrice(priceId: string): PlanChange | null;
  /** Amounts read from Stripe (the contract's list price for a price id not configured), cached 5 minutes. */
  getPricing(): Promise<Pricing>;
}

export function createStripePrices(
  stripe: Stripe,
  prices: { STARTER: PriceIds; GROWTH: PriceIds },
  clock: Clock,
): StripePrices {
  const priceIds: Record<Plan, PriceIds> = { starter: prices.STARTER, growth: prices.GROWTH };
  let pricingCache: { pricing: Pricing; expiresAt: number } | null = null;

  return {
    allConfigured: Object.values(priceIds).every((ids) => Boolean(ids.monthly && ids.yearly)),

    priceIdFor(plan, period) {
      const id = priceIds[plan][period];
      if (!id) {
        throw new BadRequest(
          `Stripe price for ${PLAN_KEYS[plan]} ${period} is not configured (STRIPE_PRICE_${PLAN_KEYS[plan]}_${period.toUpperCase()}).`,
        );
      }
      return id;
    },

    planOfPrice(priceId) {
      for (const plan of ['starter', 'growth'] as const) {
        for (const billingPeriod of ['monthly', 'yearly'] as const) {
          if (priceIds[plan][billingPeriod] === priceId) return { plan, billingPeriod };
        }
      }
      return null;
    },

    async getPricing() {
      const now = clock.now().getTime();
      if (pricingCache && pricingCache.expiresAt > now) return pricingCache.pricing;
      const amountOf = async (plan: Plan, period: BillingPeriod) => {
        const id = priceIds[plan][period];
        if (!id) return pricingOf(planCatalogue())[PLAN_KEYS[plan]][period];
        const price = await call(() => stripe.prices.retrieve(id));
        return { amount: price.unit_amount ?? 0, currency: price.currency };
      };
      const [starterMonthly, starterYearly, growthMonthly, growthYearly] = await Promise.all([
        amountOf('starter', 'monthly'),
        amountOf('starter', 'yearly'),
        amountOf('growth', 'monthly'),
        amountOf('growth', 'yearly'),
      ]);
      const pricing: Pricing = {
        STARTER: { monthly: starterMonthly, yearly: starterYearly },
        GROWTH: { monthly: growthMonthly, yearly: growthYearly },
      };
      pricingCache = { pricing, expiresAt: now + PRICING_CACHE_MS };
      return pricing;
    },
  };
}

export function amountIn(pricing: Pricing, target: PlanChange): number {
  return pricing[PLAN_KEYS[target.plan]][target.billingPeriod].amount;
}
