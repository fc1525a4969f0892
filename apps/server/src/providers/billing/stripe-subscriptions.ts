import { billingMessages, type PendingChange, type Subscription } from '@waitlist/contract';
import type Stripe from 'stripe';
import type { BillingProvider, PlanChange } from './index.ts';
import { PaymentError } from './payment-error.ts';
import { call, type StripeContext } from './stripe-client.ts';
import {
  expandedSchedule,
  idOf,
  itemOf,
  periodOf,
  toStatus,
  withdrawCancellation,
} from './stripe-mapping.ts';

/** Statuses of a subscription that still exists for the owner, best first. */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due', 'unpaid', 'paused', 'incomplete'];

/**
 * The owner's live subscription (schedule expanded), or null. Subscriptions on prices we don't sell are
 * ignored.
 */
export async function currentSubscription(
  { stripe, prices }: StripeContext,
  customerId: string,
): Promise<Stripe.Subscription | null> {
  const list = await call(() =>
    stripe.subscriptions.list({ customer: customerId, limit: 20, expand: ['data.schedule'] }),
  );
  const ours = list.data.filter(
    (subscription) =>
      LIVE_STATUSES.includes(subscription.status) &&
      prices.planOfPrice(itemOf(subscription).price.id) !== null,
  );
  ours.sort(
    (a, b) => LIVE_STATUSES.indexOf(a.status) - LIVE_STATUSES.indexOf(b.status) || b.created - a.created,
  );
  return ours[0] ?? null;
}

/**
 * Drops a pending downgrade. Also needed before a cancellation: Stripe refuses cancellation changes on a
 * subscription a schedule manages. `keyFor` gets the schedule id, so a key only ever replays on one schedule.
 */
export async function releaseSchedule(
  { stripe }: StripeContext,
  subscription: Stripe.Subscription,
  keyFor?: (scheduleId: string) => string,
) {
  const scheduleId = idOf(subscription.schedule);
  if (!scheduleId) return;
  const schedule = typeof subscription.schedule === 'object' ? subscription.schedule : null;
  if (schedule && !['active', 'not_started'].includes(schedule.status)) return;
  await call(() =>
    stripe.subscriptionSchedules.release(
      scheduleId,
      { preserve_cancel_date: true },
      keyFor ? { idempotencyKey: keyFor(scheduleId) } : undefined,
    ),
  );
  subscription.schedule = null;
}

export function toSubscription(
  { prices }: StripeContext,
  subscription: Stripe.Subscription,
  schedule: Stripe.SubscriptionSchedule | null = expandedSchedule(subscription),
): Subscription {
  const item = itemOf(subscription);
  const current = prices.planOfPrice(item.price.id);
  if (!current) throw new Error(`Subscription ${subscription.id} is on an unknown price ${item.price.id}`);
  const { start, end } = periodOf(subscription);
  return {
    id: subscription.id,
    status: toStatus(subscription.status),
    plan: current.plan,
    billingPeriod: current.billingPeriod,
    cancel_at_period_end: subscription.cancel_at_period_end || Boolean(subscription.cancel_at),
    current_period_start: start,
    current_period_end: end,
    created: subscription.created,
    pending_change: pendingChangeOf({ prices }, schedule, current, end),
  };
}

function pendingChangeOf(
  { prices }: Pick<StripeContext, 'prices'>,
  schedule: Stripe.SubscriptionSchedule | null,
  current: PlanChange,
  periodEnd: number,
): PendingChange | null {
  if (!schedule || !['active', 'not_started'].includes(schedule.status)) return null;
  const next = schedule.phases
    .filter((phase) => phase.start_date >= periodEnd)
    .sort((a, b) => a.start_date - b.start_date)[0];
  const priceId = next && idOf(next.items[0]?.price ?? null);
  const target = priceId ? prices.planOfPrice(priceId) : null;
  if (!next || !target) return null;
  if (target.plan === current.plan && target.billingPeriod === current.billingPeriod) return null;
  return { plan: target.plan, billingPeriod: target.billingPeriod, effective_at: next.start_date };
}

/** Reading the subscription and the owner's cancel / resume. Plan changes are in stripe-plan-change.ts. */
export function stripeSubscriptionCalls(
  ctx: StripeContext,
): Pick<BillingProvider, 'getSubscription' | 'cancelAtPeriodEnd' | 'resume'> {
  const { stripe } = ctx;
  return {
    async getSubscription(customerId) {
      const subscription = await currentSubscription(ctx, customerId);
      return subscription ? toSubscription(ctx, subscription) : null;
    },

    async cancelAtPeriodEnd(customerId) {
      const subscription = await currentSubscription(ctx, customerId);
      if (!subscription) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      // A pending downgrade has no meaning once the subscription ends with the period.
      await releaseSchedule(ctx, subscription);
      const updated = await call(() =>
        stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }),
      );
      return toSubscription(ctx, updated, null);
    },

    async resume(customerId) {
      const subscription = await currentSubscription(ctx, customerId);
      if (!subscription) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      const withdraw = withdrawCancellation(subscription);
      if (Object.keys(withdraw).length === 0) return toSubscription(ctx, subscription);
      const updated = await call(() => stripe.subscriptions.update(subscription.id, withdraw));
      return toSubscription(ctx, updated);
    },
  };
}
