import {
  addInterval,
  cardOfCustomer,
  charge,
  createInvoice,
  error,
  type FakeAccount,
  type FakePrice,
  type FakeSubscription,
  id,
  type Json,
  list,
  missing,
  ok,
} from './account.ts';
import { subscriptionObject } from './objects.ts';
import type { FakeRequest, FakeRoutes } from './request.ts';

/** Subscriptions of the fake Stripe API: list, create (charged now), read and update (proration). */

function createSubscription(account: FakeAccount, { body, expand }: FakeRequest) {
  const { prices, customers, subscriptions } = account;
  const items = body.items as { price: string }[] | undefined;
  const price = items?.[0] && prices.get(items[0].price);
  if (!price) return missing('price', String(items?.[0]?.price));
  const customer = String(body.customer);
  if (!customers.has(customer) || customers.get(customer)!.deleted) return missing('customer', customer);
  const card = cardOfCustomer(account, customer, body.default_payment_method);
  const refused = charge(account, card);
  if (refused && body.payment_behavior === 'error_if_incomplete') return refused;
  const sub: FakeSubscription = {
    id: id('sub'),
    customer,
    status: refused ? 'incomplete' : 'active',
    created: account.now,
    itemId: id('si'),
    price: price.id,
    periodStart: account.now,
    periodEnd: addInterval(account.now, price.interval),
    cancelAtPeriodEnd: false,
    cancelAt: null,
    defaultPaymentMethod:
      typeof body.default_payment_method === 'string' ? body.default_payment_method : null,
    latestInvoice: null,
    schedule: null,
    metadata: (body.metadata as Json) ?? {},
  };
  sub.latestInvoice = createInvoice(
    account,
    customer,
    sub.id,
    price.unit_amount,
    `Subscription to ${price.id}`,
  ).id;
  subscriptions.set(sub.id, sub);
  return ok(subscriptionObject(account, sub.id, expand));
}

/** What a change of price costs now: the difference for the rest of the period, or a new period less the unused time. */
function proration(account: FakeAccount, sub: FakeSubscription, next: FakePrice) {
  const previous = account.prices.get(sub.price)!;
  const remaining = Math.max(0, sub.periodEnd - account.now);
  const period = sub.periodEnd - sub.periodStart;
  const sameInterval = previous.interval === next.interval;
  const amount = sameInterval
    ? Math.round(((next.unit_amount - previous.unit_amount) * remaining) / period)
    : next.unit_amount - Math.round((previous.unit_amount * remaining) / period);
  return { amount, sameInterval };
}

/** POST /v1/invoices/create_preview of a subscription update: the invoice it would make, nothing changed. */
function previewInvoice(account: FakeAccount, { body }: FakeRequest) {
  const sub = account.subscriptions.get(String(body.subscription));
  if (!sub) return missing('subscription', String(body.subscription));
  const details = (body.subscription_details ?? {}) as Json;
  const items = details.items as { price?: string }[] | undefined;
  const next = items?.[0]?.price ? account.prices.get(items[0].price) : undefined;
  if (!next) return missing('price', String(items?.[0]?.price));
  const { amount } = proration(account, sub, next);
  return ok({
    object: 'invoice',
    id: null,
    customer: sub.customer,
    subscription: sub.id,
    currency: next.currency,
    amount_due: Math.max(0, amount),
    total: amount,
    status: 'draft',
  });
}

/**
 * A change of price: prorated (and charged now with `always_invoice`); a new interval starts a new period.
 */
function changePrice(account: FakeAccount, sub: FakeSubscription, body: Json) {
  const items = body.items as { id?: string; price?: string }[] | undefined;
  if (!items?.[0]?.price || items[0].price === sub.price) return undefined;
  const next = account.prices.get(items[0].price);
  if (!next) return missing('price', items[0].price);
  const { amount, sameInterval } = proration(account, sub, next);
  if (body.proration_behavior === 'always_invoice') {
    const refused = charge(
      account,
      cardOfCustomer(account, sub.customer, body.default_payment_method ?? sub.defaultPaymentMethod),
    );
    if (refused && body.payment_behavior === 'error_if_incomplete') return refused;
    sub.latestInvoice = createInvoice(
      account,
      sub.customer,
      sub.id,
      Math.max(0, amount),
      `Prorated change to ${next.id}`,
    ).id;
  }
  sub.price = next.id;
  if (!sameInterval) {
    sub.periodStart = account.now;
    sub.periodEnd = addInterval(account.now, next.interval);
  }
  return undefined;
}

function updateSubscription(account: FakeAccount, sub: FakeSubscription, { body, expand }: FakeRequest) {
  if (sub.schedule && ('cancel_at_period_end' in body || 'cancel_at' in body)) {
    return error(
      400,
      'invalid_request_error',
      `The subscription is managed by the subscription schedule \`${sub.schedule}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`,
    );
  }
  const refused = changePrice(account, sub, body);
  if (refused) return refused;
  if (typeof body.default_payment_method === 'string') sub.defaultPaymentMethod = body.default_payment_method;
  if ('cancel_at_period_end' in body) sub.cancelAtPeriodEnd = body.cancel_at_period_end === 'true';
  if ('cancel_at' in body) sub.cancelAt = body.cancel_at ? Number(body.cancel_at) : null;
  if (body.metadata) sub.metadata = { ...sub.metadata, ...(body.metadata as Json) };
  return ok(subscriptionObject(account, sub.id, expand));
}

export const subscriptionRoutes: FakeRoutes = (account, request) => {
  const { method, path, query, expand } = request;
  if (method === 'POST' && path === '/v1/invoices/create_preview') return previewInvoice(account, request);
  if (method === 'GET' && path === '/v1/subscriptions') {
    const data = [...account.subscriptions.values()]
      .filter((sub) => sub.customer === query.customer && sub.status !== 'canceled')
      .sort((a, b) => b.created - a.created)
      .map((sub) =>
        subscriptionObject(
          account,
          sub.id,
          expand.filter((e) => e.startsWith('data.')).map((e) => e.slice(5)),
        ),
      );
    return ok(list('/v1/subscriptions', data));
  }
  if (method === 'POST' && path === '/v1/subscriptions') return createSubscription(account, request);
  const match = path.match(/^\/v1\/subscriptions\/([^/]+)$/);
  if (!match) return undefined;
  const sub = account.subscriptions.get(match[1]!);
  if (!sub) return missing('subscription', match[1]!);
  if (method === 'GET') return ok(subscriptionObject(account, sub.id, expand));
  return updateSubscription(account, sub, request);
};
