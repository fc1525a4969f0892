import {
  type FakeAccount,
  type FakeCard,
  type FakeInvoice,
  type FakePrice,
  type FakeSchedule,
  id,
  type Json,
} from './account.ts';

/** The fake account's objects as Stripe renders them. */

export const priceObject = (price: FakePrice) => ({
  id: price.id,
  object: 'price',
  active: true,
  currency: price.currency,
  unit_amount: price.unit_amount,
  recurring: { interval: price.interval, interval_count: 1, usage_type: 'licensed' },
  type: 'recurring',
  metadata: {},
});

export const cardObject = (card: FakeCard) => ({
  id: card.id,
  object: 'payment_method',
  type: 'card',
  created: card.created,
  customer: card.customer,
  card: { brand: card.brand, last4: card.last4, exp_month: card.exp_month, exp_year: card.exp_year },
});

export const invoiceObject = (invoice: FakeInvoice) => ({
  id: invoice.id,
  object: 'invoice',
  number: invoice.number,
  customer: invoice.customer,
  created: invoice.created,
  amount_due: invoice.amount_due,
  amount_paid: invoice.amount_paid,
  amount_remaining: invoice.amount_due - invoice.amount_paid,
  currency: invoice.currency,
  status: invoice.status,
  description: null,
  hosted_invoice_url: `https://invoice.stripe.test/i/${invoice.id}`,
  invoice_pdf: `https://pay.stripe.test/invoice/${invoice.id}/pdf`,
  parent: invoice.subscription
    ? { type: 'subscription_details', subscription_details: { subscription: invoice.subscription } }
    : null,
  lines: {
    object: 'list',
    data: [
      { id: id('il'), object: 'line_item', amount: invoice.amount_due, description: invoice.description },
    ],
    has_more: false,
  },
});

export const scheduleObject = ({ now }: FakeAccount, schedule: FakeSchedule) => {
  const current = schedule.phases.find((phase) => phase.start_date <= now && now < phase.end_date);
  return {
    id: schedule.id,
    object: 'subscription_schedule',
    customer: schedule.customer,
    subscription: schedule.subscription,
    status: schedule.status,
    end_behavior: schedule.end_behavior,
    created: schedule.created,
    current_phase: current ? { start_date: current.start_date, end_date: current.end_date } : null,
    phases: schedule.phases.map((phase) => ({ ...phase, items: phase.items.map((item) => ({ ...item })) })),
    released_subscription: schedule.status === 'released' ? schedule.subscription : null,
  };
};

export const subscriptionObject = (
  account: FakeAccount,
  subscriptionId: string,
  expand: string[] = [],
): Json => {
  const { subscriptions, prices, schedules, invoices } = account;
  const sub = subscriptions.get(subscriptionId)!;
  const price = prices.get(sub.price)!;
  const schedule =
    sub.schedule && expand.includes('schedule')
      ? scheduleObject(account, schedules.get(sub.schedule)!)
      : sub.schedule;
  const latest =
    sub.latestInvoice && expand.includes('latest_invoice')
      ? invoiceObject(invoices.get(sub.latestInvoice)!)
      : sub.latestInvoice;
  return {
    id: sub.id,
    object: 'subscription',
    customer: sub.customer,
    status: sub.status,
    created: sub.created,
    start_date: sub.created,
    billing_cycle_anchor: sub.periodStart,
    cancel_at_period_end: sub.cancelAtPeriodEnd,
    cancel_at: sub.cancelAt,
    default_payment_method: sub.defaultPaymentMethod,
    latest_invoice: latest,
    schedule,
    metadata: sub.metadata,
    items: {
      object: 'list',
      data: [
        {
          id: sub.itemId,
          object: 'subscription_item',
          price: priceObject(price),
          quantity: 1,
          current_period_start: sub.periodStart,
          current_period_end: sub.periodEnd,
        },
      ],
      has_more: false,
    },
  };
};
