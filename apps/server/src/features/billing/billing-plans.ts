import { createHash } from 'node:crypto';
import {
  type BillingPeriod,
  billingMessages,
  type Invoice,
  type PlanChangeBody,
  type PlanChangePreview,
  planLabels,
  planOfType,
  type Subscription,
} from '@waitlist/contract';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest, Conflict } from '../../lib/errors.ts';
import { formatDate, formatMoney } from '../../lib/format.ts';
import type { PlanChange } from '../../providers/billing/index.ts';
import type { PlanChangeOutcome } from './billing.service.ts';
import { type BillingContext, providerCall } from './billing-context.ts';

/** "Growth Plan (yearly)": the plan names of SPEC §4 with the billing period. */
export const planName = (plan: 'starter' | 'growth', period: BillingPeriod) =>
  `${planLabels[plan]} (${period})`;

/** Stable for the same request in the same state, so a double submit reuses it and is charged once. */
function planChangeKey(
  user: UserRow,
  target: PlanChange,
  state: {
    subscription: Subscription | null;
    defaultCardId: string | null;
    latestInvoiceId: string | null;
  },
) {
  const { subscription } = state;
  const fingerprint = JSON.stringify({
    user: user.id,
    target,
    subscription: subscription && {
      id: subscription.id,
      plan: subscription.plan,
      billingPeriod: subscription.billingPeriod,
      status: subscription.status,
      start: subscription.current_period_start,
      pending: subscription.pending_change,
      cancelling: subscription.cancel_at_period_end,
    },
    card: state.defaultCardId,
    invoice: state.latestInvoiceId,
  });
  return `plan-change-${createHash('sha256').update(fingerprint).digest('hex').slice(0, 40)}`;
}

function changeMessage(
  target: PlanChange,
  effective: PlanChangeOutcome['effective'],
  subscription: Subscription,
  invoice: Invoice | null,
  fromTrial: boolean,
) {
  const name = planName(target.plan, target.billingPeriod);
  if (effective === 'none') return billingMessages.planUnchanged;
  if (effective === 'period_end') {
    const at = subscription.pending_change?.effective_at ?? subscription.current_period_end;
    return billingMessages.planChangeScheduled(name, formatDate(new Date(at * 1000)));
  }
  const changed = billingMessages.planChanged(name);
  if (!invoice || invoice.amount_paid === 0) return changed;
  const amount = formatMoney(invoice.amount_paid, invoice.currency);
  return `${changed} ${fromTrial ? billingMessages.fullCharge(amount) : billingMessages.proratedCharge(amount)}`;
}

/**
 * Trial → paid and changes to a more expensive price are charged now (prorated); cheaper ones are
 * scheduled for the end of the period; the current plan again changes nothing. A card is required.
 */
async function changePlan(
  ctx: BillingContext,
  user: UserRow,
  body: PlanChangeBody,
  paymentMethodId?: string,
): Promise<PlanChangeOutcome> {
  const { provider, syncSubscription } = ctx;
  ctx.requireConfigured();
  const target: PlanChange = { plan: planOfType[body.planType], billingPeriod: body.billingPeriod };
  const customerId = await ctx.customerOf(user);
  if (paymentMethodId) {
    await providerCall(() => provider.attachPaymentMethod(customerId, paymentMethodId));
    await providerCall(() => provider.setDefaultPaymentMethod(customerId, paymentMethodId));
  }
  const [subscription, cards, invoices] = await Promise.all([
    providerCall(() => provider.getSubscription(customerId)),
    providerCall(() => provider.listPaymentMethods(customerId)),
    providerCall(() => provider.listInvoices(customerId)),
  ]);
  const unchanged =
    subscription &&
    subscription.plan === target.plan &&
    subscription.billingPeriod === target.billingPeriod &&
    !subscription.pending_change;
  if (unchanged) {
    await syncSubscription(customerId, subscription);
    return { message: billingMessages.planUnchanged, subscription, effective: 'none', invoice: null };
  }
  if (cards.length === 0) throw new BadRequest(billingMessages.noPaymentMethod);

  const idempotencyKey = planChangeKey(user, target, {
    subscription,
    defaultCardId: (cards.find((card) => card.isDefault) ?? cards[0])?.id ?? null,
    latestInvoiceId: invoices[0]?.id ?? null,
  });
  const result = await providerCall(() => provider.changePlan(customerId, target, idempotencyKey));
  await syncSubscription(customerId, result.subscription);
  return {
    message: changeMessage(target, result.effective, result.subscription, result.invoice, !subscription),
    subscription: result.subscription,
    effective: result.effective,
    invoice: result.invoice,
  };
}

/** The owner's plan: change it, cancel at the period end, resume, or start it through a hosted checkout. */
export function billingPlanCalls(ctx: BillingContext) {
  const { provider, syncSubscription } = ctx;
  return {
    changePlan: (user: UserRow, body: PlanChangeBody, paymentMethodId?: string) =>
      changePlan(ctx, user, body, paymentMethodId),

    /**
     * What `changePlan` would charge today (issue 27: the dialog shows it before Confirm). Read-only: an
     * owner without a billing customer yet is not given one; their first plan costs its full price.
     */
    async previewPlanChange(user: UserRow, body: PlanChangeBody): Promise<PlanChangePreview> {
      ctx.requireConfigured();
      const target: PlanChange = { plan: planOfType[body.planType], billingPeriod: body.billingPeriod };
      const customerId = await ctx.existingCustomer(user);
      if (customerId) return providerCall(() => provider.previewPlanChange(customerId, target));
      const price = (await providerCall(() => provider.getPricing()))[body.planType][body.billingPeriod];
      return { effective: 'now', amountDue: price.amount, currency: price.currency, effectiveAt: null };
    },

    /** Only an active subscription that is not already cancelling; it stays active to the period end. */
    async cancel(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      const current = customerId ? await providerCall(() => provider.getSubscription(customerId)) : null;
      if (!customerId || !current) throw new Conflict(billingMessages.noSubscription);
      if (current.status !== 'active') throw new Conflict(billingMessages.notActive);
      if (current.cancel_at_period_end) throw new Conflict(billingMessages.alreadyCancelling);
      const subscription = await providerCall(() => provider.cancelAtPeriodEnd(customerId));
      await syncSubscription(customerId, subscription);
      return { message: billingMessages.subscriptionCancelled, subscription };
    },

    /** Only while the subscription is set to cancel at the period end. */
    async resume(user: UserRow) {
      ctx.requireConfigured();
      const customerId = await ctx.existingCustomer(user);
      const current = customerId ? await providerCall(() => provider.getSubscription(customerId)) : null;
      if (!customerId || !current) throw new Conflict(billingMessages.noSubscription);
      if (!current.cancel_at_period_end) throw new Conflict(billingMessages.notCancelling);
      const subscription = await providerCall(() => provider.resume(customerId));
      await syncSubscription(customerId, subscription);
      return { message: billingMessages.subscriptionResumed, subscription };
    },

    /** A hosted checkout for a first subscription; an existing one is changed on the Plan tab instead. */
    async createCheckoutSession(user: UserRow, body: PlanChangeBody) {
      ctx.requireConfigured();
      const customerId = await ctx.customerOf(user);
      if (await providerCall(() => provider.getSubscription(customerId))) {
        throw new Conflict(billingMessages.alreadySubscribed);
      }
      return providerCall(() =>
        provider.createCheckoutSession(customerId, {
          plan: planOfType[body.planType],
          billingPeriod: body.billingPeriod,
          successUrl: `${ctx.publicUrl}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${ctx.publicUrl}/subscription/cancel`,
        }),
      );
    },
  };
}
