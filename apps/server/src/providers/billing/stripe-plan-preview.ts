import type { PlanChange, PlanChangePreview } from './index.ts';
import { call, type StripeContext } from './stripe-client.ts';
import { itemOf, periodOf } from './stripe-mapping.ts';
import { amountIn } from './stripe-prices.ts';
import { currentSubscription } from './stripe-subscriptions.ts';

/**
 * `BillingProvider.previewPlanChange` on Stripe, by the same rules as `changePlan` (stripe-plan-change.ts):
 * no subscription → the full price; the same price → nothing; a cheaper price → at the period end; a more
 * expensive one → Stripe's own proration, read from `invoices.createPreview` with the update `changePlan`
 * would send (`always_invoice`), so the amount shown is the amount charged. Nothing is created or charged.
 */
export async function previewPlanChange(
  ctx: StripeContext,
  customerId: string,
  change: PlanChange,
): Promise<PlanChangePreview> {
  const targetPrice = ctx.prices.priceIdFor(change.plan, change.billingPeriod);
  const pricing = await ctx.prices.getPricing();
  const target = pricing[change.plan === 'starter' ? 'STARTER' : 'GROWTH'][change.billingPeriod];
  const current = await currentSubscription(ctx, customerId);
  if (!current) {
    return { effective: 'now', amountDue: target.amount, currency: target.currency, effectiveAt: null };
  }
  const item = itemOf(current);
  if (item.price.id === targetPrice) {
    return { effective: 'none', amountDue: 0, currency: target.currency, effectiveAt: null };
  }
  const currentTarget = ctx.prices.planOfPrice(item.price.id)!;
  const currentAmount = item.price.unit_amount ?? amountIn(pricing, currentTarget);
  if (amountIn(pricing, change) <= currentAmount) {
    return {
      effective: 'period_end',
      amountDue: 0,
      currency: target.currency,
      effectiveAt: periodOf(current).end,
    };
  }
  const preview = await call(() =>
    ctx.stripe.invoices.createPreview({
      customer: customerId,
      subscription: current.id,
      subscription_details: {
        items: [{ id: item.id, price: targetPrice, quantity: 1 }],
        proration_behavior: 'always_invoice',
      },
    }),
  );
  return {
    effective: 'now',
    amountDue: Math.max(0, preview.amount_due),
    currency: preview.currency,
    effectiveAt: null,
  };
}
