import type Stripe from 'stripe';
import type { PlanChange, PlanChangeResult } from './index.ts';
import { requireDefaultCard } from './stripe-cards.ts';
import { call, idempotencyKeyOf, replayed, type StripeContext } from './stripe-client.ts';
import {
  expandedSchedule,
  idOf,
  itemOf,
  latestInvoiceOf,
  periodOf,
  withdrawCancellation,
} from './stripe-mapping.ts';
import { amountIn } from './stripe-prices.ts';
import {
  currentSubscription,
  LIVE_STATUSES,
  releaseSchedule,
  toSubscription,
} from './stripe-subscriptions.ts';

/** The idempotency key of one step of a plan change, derived from the caller's key. */
type StepKey = (step: string) => string;

/**
 * `BillingProvider.changePlan` on Stripe: no subscription yet → subscribe now; the same price → drop a
 * scheduled downgrade; a more expensive price → Stripe prorates and charges now; a cheaper one → a
 * subscription schedule switches at the period end.
 */
export async function changePlan(
  ctx: StripeContext,
  customerId: string,
  change: PlanChange,
  idempotencyKey: string,
): Promise<PlanChangeResult> {
  const targetPrice = ctx.prices.priceIdFor(change.plan, change.billingPeriod);
  const key: StepKey = (step) => idempotencyKeyOf(`plan-change:${idempotencyKey}:${step}`);
  const current = await currentSubscription(ctx, customerId);
  if (!current) return subscribe(ctx, customerId, change, targetPrice, key);

  const item = itemOf(current);
  if (item.price.id === targetPrice) {
    // Keeping the current plan drops a downgrade scheduled earlier; nothing is charged.
    await releaseSchedule(ctx, current, (scheduleId) => key(`keep:${scheduleId}`));
    return { subscription: toSubscription(ctx, current, null), effective: 'none', invoice: null };
  }

  const pricing = await ctx.prices.getPricing();
  const currentTarget = ctx.prices.planOfPrice(item.price.id)!;
  const currentAmount = item.price.unit_amount ?? amountIn(pricing, currentTarget);
  const targetAmount = amountIn(pricing, change);
  if (targetAmount > currentAmount) return upgrade(ctx, customerId, current, change, targetPrice, key);
  return scheduleDowngrade(ctx, current, change, targetPrice, key);
}

/** Trial → paid: a new subscription, the full price charged now to the default card. */
async function subscribe(
  ctx: StripeContext,
  customerId: string,
  change: PlanChange,
  targetPrice: string,
  key: StepKey,
): Promise<PlanChangeResult> {
  const { stripe } = ctx;
  const paymentMethod = await requireDefaultCard(ctx, customerId);
  const create = (idempotencyKey: string) =>
    call(() =>
      stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price: targetPrice, quantity: 1 }],
          default_payment_method: paymentMethod,
          payment_behavior: 'error_if_incomplete',
          metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
          expand: ['latest_invoice'],
        },
        { idempotencyKey },
      ),
    );
  let created = await create(key('create'));
  // A replay is right for a double submit, but a key reused after that subscription ended replays a
  // subscription that is gone: then subscribe anew, keyed on the old one (still stable for retries).
  for (let attempt = 0; attempt < 3 && replayed(created); attempt += 1) {
    const previous = await call(() => stripe.subscriptions.retrieve(created.id));
    if (LIVE_STATUSES.includes(previous.status)) break;
    created = await create(key(`create-after:${created.id}`));
  }
  return {
    subscription: toSubscription(ctx, created, null),
    effective: 'now',
    invoice: latestInvoiceOf(created),
  };
}

/** To a more expensive price: Stripe prorates and invoices the difference now, paid with the default card. */
async function upgrade(
  ctx: StripeContext,
  customerId: string,
  current: Stripe.Subscription,
  change: PlanChange,
  targetPrice: string,
  key: StepKey,
): Promise<PlanChangeResult> {
  const paymentMethod = await requireDefaultCard(ctx, customerId);
  await releaseSchedule(ctx, current, (scheduleId) => key(`release:${scheduleId}`));
  const item = itemOf(current);
  const updated = await call(() =>
    ctx.stripe.subscriptions.update(
      current.id,
      {
        items: [{ id: item.id, price: targetPrice, quantity: 1 }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        default_payment_method: paymentMethod,
        // Choosing a plan means the owner no longer wants to cancel (as with local billing).
        ...withdrawCancellation(current),
        metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
        expand: ['latest_invoice'],
      },
      { idempotencyKey: key(`upgrade:${current.id}`) },
    ),
  );
  return {
    subscription: toSubscription(ctx, updated, null),
    effective: 'now',
    invoice: latestInvoiceOf(updated),
  };
}

/** To a cheaper price: a schedule keeps the current price until the period ends, then switches. */
async function scheduleDowngrade(
  ctx: StripeContext,
  current: Stripe.Subscription,
  change: PlanChange,
  targetPrice: string,
  key: StepKey,
): Promise<PlanChangeResult> {
  const withdraw = withdrawCancellation(current);
  if (Object.keys(withdraw).length > 0) {
    // Choosing a plan for the next period means the owner no longer wants to cancel.
    const resumed = await call(() =>
      ctx.stripe.subscriptions.update(
        current.id,
        { ...withdraw, expand: ['schedule'] },
        { idempotencyKey: key(`resume:${current.id}`) },
      ),
    );
    Object.assign(current, { cancel_at_period_end: false, cancel_at: null, schedule: resumed.schedule });
  }
  const { end } = periodOf(current);
  const schedule = await usableSchedule(ctx, current, key);
  const currentPhaseStart =
    schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? periodOf(current).start;
  const scheduleId = schedule.id;
  const updatedSchedule = await call(() =>
    ctx.stripe.subscriptionSchedules.update(
      scheduleId,
      {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          {
            items: [{ price: itemOf(current).price.id, quantity: 1 }],
            start_date: currentPhaseStart,
            end_date: end,
            proration_behavior: 'none',
          },
          {
            items: [{ price: targetPrice, quantity: 1 }],
            duration: { interval: change.billingPeriod === 'yearly' ? 'year' : 'month', interval_count: 1 },
            proration_behavior: 'none',
            metadata: { plan: change.plan, billingPeriod: change.billingPeriod },
          },
        ],
      },
      { idempotencyKey: key(`phases:${scheduleId}`) },
    ),
  );
  return {
    subscription: toSubscription(ctx, { ...current, schedule: updatedSchedule }, updatedSchedule),
    effective: 'period_end',
    invoice: null,
  };
}

/** The subscription's live schedule, or a new one made from it. */
async function usableSchedule(
  { stripe }: StripeContext,
  current: Stripe.Subscription,
  key: StepKey,
): Promise<Stripe.SubscriptionSchedule> {
  const scheduleFor = (idempotencyKey: string) =>
    call(() => stripe.subscriptionSchedules.create({ from_subscription: current.id }, { idempotencyKey }));
  const usable = (candidate: Stripe.SubscriptionSchedule | null): boolean =>
    candidate !== null &&
    ['active', 'not_started'].includes(candidate.status) &&
    idOf(candidate.subscription) === current.id;
  const schedule = expandedSchedule(current);
  if (schedule && usable(schedule)) return schedule;
  let created = await scheduleFor(key(`schedule:${current.id}`));
  // As for subscriptions: a replayed schedule that was released since is replaced by a new one.
  for (let attempt = 0; attempt < 3 && replayed(created); attempt += 1) {
    const previous = await call(() => stripe.subscriptionSchedules.retrieve(created.id));
    if (usable(previous)) break;
    created = await scheduleFor(key(`schedule-after:${created.id}`));
  }
  return created;
}
