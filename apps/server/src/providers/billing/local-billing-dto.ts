import type { Invoice, PaymentMethod, Subscription } from '@waitlist/contract';
import type { InvoiceRow, PaymentMethodRow, SubscriptionRow } from './local-billing.repo.ts';

/** The local provider's rows in the API's (Stripe's) shapes. */
const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);
export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    status: row.status,
    plan: row.plan,
    billingPeriod: row.billingPeriod,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    current_period_start: toSeconds(row.currentPeriodStart),
    current_period_end: toSeconds(row.currentPeriodEnd),
    created: toSeconds(row.createdAt),
    pending_change:
      row.pendingPlan && row.pendingBillingPeriod
        ? {
            plan: row.pendingPlan,
            billingPeriod: row.pendingBillingPeriod,
            effective_at: toSeconds(row.currentPeriodEnd),
          }
        : null,
  };
}
export function toInvoice(row: InvoiceRow, publicUrl: string): Invoice {
  const hosted = `${publicUrl}/billing/local/invoices/${encodeURIComponent(row.id)}`;
  return {
    id: row.id,
    number: row.number,
    created: toSeconds(row.createdAt),
    amount_paid: row.amountPaid,
    amount_due: row.amountDue,
    currency: row.currency,
    status: row.status,
    description: row.description,
    hosted_invoice_url: hosted,
    invoice_pdf: `${hosted}/pdf`,
  };
}
export function toPaymentMethod(row: PaymentMethodRow, defaultId: string | null): PaymentMethod {
  return {
    id: row.id,
    brand: row.brand,
    last4: row.last4,
    exp_month: row.expMonth,
    exp_year: row.expYear,
    isDefault: row.id === defaultId,
  };
}
