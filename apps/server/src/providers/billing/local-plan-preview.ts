import type { PlanChange, PlanChangePreview } from './index.ts';
import { liveSubscription, type SubscriptionRow } from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { priceOf, prorate } from './local-billing-math.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * What `changePlanIn` (local-subscriptions.ts) would charge today, by the same rules and the same proration,
 * read without a lock and without writing: the plan-change dialog shows it before the owner confirms.
 */
export function planChangePreviewOf(
  current: SubscriptionRow | null,
  change: PlanChange,
  now: Date,
): PlanChangePreview {
  const newPrice = priceOf(change.plan, change.billingPeriod);
  if (!current) return { effective: 'now', amountDue: newPrice, currency: 'usd', effectiveAt: null };
  if (current.plan === change.plan && current.billingPeriod === change.billingPeriod)
    return { effective: 'none', amountDue: 0, currency: 'usd', effectiveAt: null };
  const oldPrice = priceOf(current.plan, current.billingPeriod);
  if (newPrice <= oldPrice) {
    return {
      effective: 'period_end',
      amountDue: 0,
      currency: 'usd',
      effectiveAt: seconds(current.currentPeriodEnd),
    };
  }
  const { amount } = prorate({
    oldPrice,
    newPrice,
    samePeriod: current.billingPeriod === change.billingPeriod,
    periodStart: current.currentPeriodStart,
    periodEnd: current.currentPeriodEnd,
    now,
  });
  return { effective: 'now', amountDue: amount, currency: 'usd', effectiveAt: null };
}

export function localPlanPreviewCalls(ctx: LocalBillingContext): {
  previewPlanChange(customerId: string, change: PlanChange): Promise<PlanChangePreview>;
} {
  return {
    async previewPlanChange(customerId, change) {
      const current = await liveSubscription(ctx.db, customerId);
      return planChangePreviewOf(current ?? null, change, await ctx.billingNow(ctx.db));
    },
  };
}
