import { randomBytes } from 'node:crypto';

/** The fake Stripe account's in-memory state and the answers its routes share. */

export type Json = Record<string, unknown>;
export type Interval = 'month' | 'year';

export interface FakePrice {
  id: string;
  unit_amount: number;
  currency: string;
  interval: Interval;
}
export interface FakeCard {
  id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  customer: string | null;
  created: number;
  /** What a charge on this card does: succeed, or fail with this decline code. */
  decline: null | 'generic_decline' | 'insufficient_funds';
}
export interface FakeSubscription {
  id: string;
  customer: string;
  status: string;
  created: number;
  itemId: string;
  price: string;
  periodStart: number;
  periodEnd: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  defaultPaymentMethod: string | null;
  latestInvoice: string | null;
  schedule: string | null;
  metadata: Json;
}
export interface FakePhase {
  start_date: number;
  end_date: number;
  items: { price: string; quantity: number }[];
}
export interface FakeSchedule {
  id: string;
  subscription: string;
  customer: string;
  status: string;
  end_behavior: string;
  phases: FakePhase[];
  created: number;
}
export interface FakeInvoice {
  id: string;
  number: string;
  customer: string;
  subscription: string | null;
  created: number;
  amount_due: number;
  amount_paid: number;
  currency: string;
  status: string;
  description: string;
}

export interface FakeAccount {
  /** Unix seconds of the fake account's clock (FakeStripe's `now`, which tests move). */
  readonly now: number;
  prices: Map<string, FakePrice>;
  customers: Map<string, Json>;
  cards: Map<string, FakeCard>;
  subscriptions: Map<string, FakeSubscription>;
  schedules: Map<string, FakeSchedule>;
  invoices: Map<string, FakeInvoice>;
  invoiceCount: number;
}

export const DECLINED_MESSAGE = 'Your card was declined.';
export const INSUFFICIENT_FUNDS_MESSAGE = 'Your card has insufficient funds.';

export const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

// ---- answers ----
export type Answer = { status: number; body: Json };
export const ok = (body: Json): Answer => ({ status: 200, body });
export const list = (url: string, data: unknown[]) => ({ object: 'list', url, has_more: false, data });
export const error = (status: number, type: string, message: string, extra: Json = {}): Answer => ({
  status,
  body: { error: { type, message, ...extra } },
});
export const missing = (kind: string, value: string) =>
  error(404, 'invalid_request_error', `No such ${kind}: '${value}'`, { code: 'resource_missing' });

export const addInterval = (from: number, interval: Interval) => {
  const date = new Date(from * 1000);
  if (interval === 'year') date.setUTCFullYear(date.getUTCFullYear() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return Math.floor(date.getTime() / 1000);
};

/** Charges a card: null when paid, or Stripe's card_error answer. */
export const charge = ({ cards }: FakeAccount, cardId: string | null) => {
  const card = cardId ? cards.get(cardId) : undefined;
  if (!card)
    return error(
      400,
      'invalid_request_error',
      'This customer has no attached payment source or default payment method.',
      {
        code: 'resource_missing',
      },
    );
  if (card.decline === 'insufficient_funds')
    return error(402, 'card_error', INSUFFICIENT_FUNDS_MESSAGE, {
      code: 'card_declined',
      decline_code: 'insufficient_funds',
    });
  if (card.decline)
    return error(402, 'card_error', DECLINED_MESSAGE, {
      code: 'card_declined',
      decline_code: card.decline,
    });
  return null;
};

export const createInvoice = (
  account: FakeAccount,
  customer: string,
  subscription: string,
  amount: number,
  description: string,
) => {
  account.invoiceCount += 1;
  const invoice: FakeInvoice = {
    id: id('in'),
    number: `FAKE-${String(account.invoiceCount).padStart(4, '0')}`,
    customer,
    subscription,
    created: account.now,
    amount_due: amount,
    amount_paid: amount,
    currency: 'usd',
    status: 'paid',
    description,
  };
  account.invoices.set(invoice.id, invoice);
  return invoice;
};

export const cardOfCustomer = (
  { customers }: FakeAccount,
  customerId: string,
  explicit?: unknown,
): string | null => {
  if (typeof explicit === 'string' && explicit) return explicit;
  const customer = customers.get(customerId);
  const settings = customer?.invoice_settings as { default_payment_method: string | null } | undefined;
  return settings?.default_payment_method ?? null;
};
