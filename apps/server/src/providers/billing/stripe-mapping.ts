import type { Invoice, PaymentMethod, SubscriptionStatus } from '@waitlist/contract';
import type Stripe from 'stripe';

/** Stripe's objects → the contract's shapes (Unix seconds, cents), and the fields several calls read. */

export function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

export function itemOf(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) throw new Error(`Subscription ${subscription.id} has no items`);
  return item;
}

/**
 * Recent Stripe API versions moved the billing period from the subscription onto its items; older payloads
 * still carry it on the subscription itself.
 */
export function periodOf(subscription: Stripe.Subscription): { start: number; end: number } {
  const item = itemOf(subscription) as Partial<Stripe.SubscriptionItem>;
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  return {
    start: item.current_period_start ?? legacy.current_period_start ?? subscription.start_date,
    end: item.current_period_end ?? legacy.current_period_end ?? subscription.start_date,
  };
}

/**
 * The update that withdraws a pending cancellation: `cancel_at_period_end`, or the `cancel_at` date the
 * hosted portal may set instead (the contract shows either as `cancel_at_period_end`). Empty when none.
 */
export function withdrawCancellation(subscription: Stripe.Subscription): Stripe.SubscriptionUpdateParams {
  if (subscription.cancel_at_period_end) return { cancel_at_period_end: false };
  if (subscription.cancel_at) return { cancel_at: '' };
  return {};
}

export function expandedSchedule(subscription: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  return subscription.schedule && typeof subscription.schedule === 'object' ? subscription.schedule : null;
}

export function toStatus(status: Stripe.Subscription.Status): SubscriptionStatus {
  switch (status) {
    case 'active':
    case 'trialing':
    case 'past_due':
    case 'canceled':
    case 'incomplete':
    case 'unpaid':
      return status as SubscriptionStatus;
    case 'incomplete_expired':
      return 'canceled';
    default:
      // `paused` (a trial that ended without a card) and any status added later: not being paid.
      return 'unpaid';
  }
}

export function toPaymentMethod(card: Stripe.PaymentMethod, defaultId: string | null): PaymentMethod {
  return {
    id: card.id,
    brand: card.card?.brand ?? 'unknown',
    last4: card.card?.last4 ?? '',
    exp_month: card.card?.exp_month ?? 0,
    exp_year: card.card?.exp_year ?? 0,
    isDefault: card.id === defaultId,
  };
}

const INVOICE_STATUSES = ['paid', 'open', 'void', 'draft', 'uncollectible'] as const;

export function toInvoice(invoice: Stripe.Invoice): Invoice {
  const status = INVOICE_STATUSES.find((known) => known === invoice.status) ?? 'draft';
  return {
    id: invoice.id ?? '',
    number: invoice.number ?? '',
    created: invoice.created,
    amount_paid: invoice.amount_paid,
    amount_due: invoice.amount_due,
    currency: invoice.currency,
    status,
    description: invoice.description ?? invoice.lines?.data[0]?.description ?? '',
    hosted_invoice_url: invoice.hosted_invoice_url ?? '',
    invoice_pdf: invoice.invoice_pdf ?? '',
  };
}

export function latestInvoiceOf(subscription: Stripe.Subscription): Invoice | null {
  const invoice = subscription.latest_invoice;
  return invoice && typeof invoice === 'object' ? toInvoice(invoice) : null;
}
