import { billingMessages, type Invoice, planLabels, type Subscription } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import type { PlanChange, PlanChangeResult } from './index.ts';
import {
  charge,
  findInvoiceByIdempotencyKey,
  insertSubscription,
  liveSubscription,
  lockCustomer,
  openInvoiceCount,
  randomId,
  updateSubscription,
  voidOpenInvoices,
} from './local-billing.repo.ts';
import { toInvoice, toSubscription } from './local-billing-dto.ts';
import { addPeriod, nextPeriodEnd, priceOf, prorate } from './local-billing-math.ts';
import { PaymentError } from './payment-error.ts';

/** How many periods one customer may roll over in one pass (a clock moved years ahead). */
export const MAX_PERIODS_PER_PASS = 1000;

/** The local provider's subscription rules: plan changes (upgrade now, downgrade at period end) and period ends. */
export interface SubscriptionContext {
  publicUrl: string;
  /** The billing clock's now (the real clock plus the test tools' offset). */
  billingNow(executor: Executor): Promise<Date>;
}

export interface PeriodEndOutcome {
  customerId: string;
  kind: 'renewed' | 'changed' | 'payment_failed' | 'canceled';
  subscription: Subscription;
  invoice: Invoice | null;
}

const periodLabel = (plan: 'starter' | 'growth', period: 'monthly' | 'yearly') =>
  `${planLabels[plan]} (${period})`;

// ---- plan changes ----
export async function changePlanIn(
  ctx: SubscriptionContext,
  tx: Executor,
  customerId: string,
  change: PlanChange,
  idempotencyKey: string,
): Promise<PlanChangeResult> {
  const customer = await lockCustomer(tx, customerId);
  const replayed = await findInvoiceByIdempotencyKey(tx, idempotencyKey);
  const current = await liveSubscription(tx, customerId);
  if (replayed) {
    // The same request again (a double submit): the first one's answer, and no second charge.
    if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
    return {
      subscription: toSubscription(current),
      effective: 'now',
      invoice: toInvoice(replayed, ctx.publicUrl),
    };
  }
  const now = await ctx.billingNow(tx);
  const newPrice = priceOf(change.plan, change.billingPeriod);
  const target = periodLabel(change.plan, change.billingPeriod);

  if (!current) {
    // Trial (or a subscription that ended) → paid: the full price, and the first period starts now.
    const end = addPeriod(now, change.billingPeriod);
    const subscriptionId = randomId('sub');
    const { invoice } = await charge(tx, customer, newPrice, {
      idempotencyKey,
      subscriptionId,
      description: `${target}, ${formatDate(now)} – ${formatDate(end)}`,
      periodStart: now,
      periodEnd: end,
      at: now,
    });
    const created = await insertSubscription(tx, {
      id: subscriptionId,
      customerId,
      plan: change.plan,
      billingPeriod: change.billingPeriod,
      status: 'active',
      currentPeriodStart: now,
      currentPeriodEnd: end,
      billingCycleAnchor: now,
      createdAt: now,
    });
    return {
      subscription: toSubscription(created),
      effective: 'now',
      invoice: toInvoice(invoice, ctx.publicUrl),
    };
  }

  if (current.plan === change.plan && current.billingPeriod === change.billingPeriod) {
    // The current plan again: nothing is charged; a scheduled change to another plan is dropped.
    const kept = await updateSubscription(tx, current.id, { pendingPlan: null, pendingBillingPeriod: null });
    return { subscription: toSubscription(kept), effective: 'none', invoice: null };
  }

  const oldPrice = priceOf(current.plan, current.billingPeriod);
  if (newPrice <= oldPrice) {
    // To a cheaper price: at the end of the period. Choosing a plan also withdraws a pending cancellation.
    const scheduled = await updateSubscription(tx, current.id, {
      pendingPlan: change.plan,
      pendingBillingPeriod: change.billingPeriod,
      cancelAtPeriodEnd: false,
    });
    return { subscription: toSubscription(scheduled), effective: 'period_end', invoice: null };
  }

  // To a more expensive price: now, prorated.
  const samePeriod = current.billingPeriod === change.billingPeriod;
  const proration = prorate({
    oldPrice,
    newPrice,
    samePeriod,
    periodStart: current.currentPeriodStart,
    periodEnd: current.currentPeriodEnd,
    now,
  });
  const start = proration.restartsPeriod ? now : current.currentPeriodStart;
  const end = proration.restartsPeriod ? addPeriod(now, change.billingPeriod) : current.currentPeriodEnd;
  const from = periodLabel(current.plan, current.billingPeriod);
  const description = proration.restartsPeriod
    ? `${target}, ${formatDate(start)} – ${formatDate(end)}, less ${formatMoney(proration.credit)} unused time on ${from}`
    : `${from} → ${target}, prorated for the rest of the period to ${formatDate(end)}`;
  const { invoice } = await charge(tx, customer, proration.amount, {
    idempotencyKey,
    subscriptionId: current.id,
    description,
    periodStart: proration.restartsPeriod ? start : now,
    periodEnd: end,
    at: now,
  });
  const upgraded = await updateSubscription(tx, current.id, {
    plan: change.plan,
    billingPeriod: change.billingPeriod,
    currentPeriodStart: start,
    currentPeriodEnd: end,
    billingCycleAnchor: proration.restartsPeriod ? now : current.billingCycleAnchor,
    pendingPlan: null,
    pendingBillingPeriod: null,
    cancelAtPeriodEnd: false,
    status: (await openInvoiceCount(tx, customerId)) > 0 ? 'past_due' : 'active',
  });
  return {
    subscription: toSubscription(upgraded),
    effective: 'now',
    invoice: toInvoice(invoice, ctx.publicUrl),
  };
}

// ---- period ends ----
export async function applyPeriodEnds(
  ctx: SubscriptionContext,
  tx: Executor,
  customerId: string,
  now: Date,
): Promise<PeriodEndOutcome[]> {
  const customer = await lockCustomer(tx, customerId);
  const outcomes: PeriodEndOutcome[] = [];
  let subscription = await liveSubscription(tx, customerId);
  for (let step = 0; subscription && subscription.currentPeriodEnd <= now; step += 1) {
    if (step >= MAX_PERIODS_PER_PASS) break;
    const endedAt = subscription.currentPeriodEnd;
    if (subscription.cancelAtPeriodEnd || subscription.status === 'past_due') {
      // Cancelled by the owner, or a whole period went unpaid: the subscription ends here.
      await voidOpenInvoices(tx, customerId);
      const ended = await updateSubscription(tx, subscription.id, {
        status: 'canceled',
        endedAt,
        pendingPlan: null,
        pendingBillingPeriod: null,
      });
      outcomes.push({ customerId, kind: 'canceled', subscription: toSubscription(ended), invoice: null });
      break;
    }
    const changed = subscription.pendingPlan !== null && subscription.pendingBillingPeriod !== null;
    const plan = subscription.pendingPlan ?? subscription.plan;
    const period = subscription.pendingBillingPeriod ?? subscription.billingPeriod;
    const anchor = changed ? endedAt : subscription.billingCycleAnchor;
    const end = changed ? addPeriod(endedAt, period) : nextPeriodEnd(anchor, period, endedAt);
    const { invoice, paid } = await charge(tx, customer, priceOf(plan, period), {
      idempotencyKey: `renewal:${subscription.id}:${endedAt.getTime()}`,
      subscriptionId: subscription.id,
      description: `${periodLabel(plan, period)}, ${formatDate(endedAt)} – ${formatDate(end)}`,
      periodStart: endedAt,
      periodEnd: end,
      at: endedAt,
      leaveOpen: true,
    });
    subscription = await updateSubscription(tx, subscription.id, {
      plan,
      billingPeriod: period,
      currentPeriodStart: endedAt,
      currentPeriodEnd: end,
      billingCycleAnchor: anchor,
      pendingPlan: null,
      pendingBillingPeriod: null,
      status: paid ? 'active' : 'past_due',
    });
    outcomes.push({
      customerId,
      kind: !paid ? 'payment_failed' : changed ? 'changed' : 'renewed',
      subscription: toSubscription(subscription),
      invoice: toInvoice(invoice, ctx.publicUrl),
    });
  }
  return outcomes;
}
