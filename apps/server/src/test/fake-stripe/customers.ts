import { randomBytes } from 'node:crypto';
import { error, type FakeAccount, id, type Json, list, missing, ok } from './account.ts';
import { cardObject, priceObject } from './objects.ts';
import type { FakeRoutes } from './request.ts';

/** Prices, customers (create, update, delete), setup intents and cards of the fake Stripe API. */

export const priceRoutes: FakeRoutes = ({ prices }, { method, path }) => {
  const match = path.match(/^\/v1\/prices\/([^/]+)$/);
  if (method !== 'GET' || !match) return undefined;
  const price = prices.get(match[1]!);
  return price ? ok(priceObject(price)) : missing('price', match[1]!);
};

/**
 * As Stripe: the customer's subscriptions are canceled at once (their schedules with them), its cards
 * detached.
 */
function deleteCustomer({ customers, subscriptions, schedules, cards }: FakeAccount, customerId: string) {
  for (const sub of subscriptions.values()) {
    if (sub.customer !== customerId || sub.status === 'canceled') continue;
    sub.status = 'canceled';
    sub.cancelAtPeriodEnd = false;
    sub.cancelAt = null;
    const schedule = sub.schedule ? schedules.get(sub.schedule) : undefined;
    if (schedule && ['active', 'not_started'].includes(schedule.status)) schedule.status = 'canceled';
  }
  for (const card of cards.values()) if (card.customer === customerId) card.customer = null;
  const deleted = { id: customerId, object: 'customer', deleted: true };
  customers.set(customerId, deleted);
  return ok(deleted);
}

export const customerRoutes: FakeRoutes = (account, { method, path, body }) => {
  const { customers } = account;
  if (method === 'POST' && path === '/v1/customers') {
    const customer = {
      id: id('cus'),
      object: 'customer',
      email: body.email ?? null,
      name: body.name ?? null,
      metadata: body.metadata ?? {},
      address: null,
      created: account.now,
      invoice_settings: { default_payment_method: null },
    };
    customers.set(customer.id, customer);
    return ok(customer);
  }
  const match = path.match(/^\/v1\/customers\/([^/]+)$/);
  if (match) {
    const customer = customers.get(match[1]!);
    if (!customer) return missing('customer', match[1]!);
    // A deleted customer can still be retrieved (as a stub with `deleted: true`), but not changed or deleted again.
    if (customer.deleted) return method === 'GET' ? ok(customer) : missing('customer', match[1]!);
    if (method === 'DELETE') return deleteCustomer(account, match[1]!);
    if (method === 'POST') {
      for (const key of ['name', 'email', 'address'] as const) if (key in body) customer[key] = body[key];
      const settings = body.invoice_settings as Json | undefined;
      if (settings && 'default_payment_method' in settings)
        customer.invoice_settings = { default_payment_method: settings.default_payment_method || null };
    }
    return ok(customer);
  }
  if (method === 'POST' && path === '/v1/setup_intents') {
    const intentId = id('seti');
    return ok({
      id: intentId,
      object: 'setup_intent',
      customer: body.customer,
      usage: body.usage,
      status: 'requires_payment_method',
      client_secret: `${intentId}_secret_${randomBytes(8).toString('hex')}`,
    });
  }
  return undefined;
};

export const cardRoutes: FakeRoutes = ({ cards, customers }, { method, path, query, body }) => {
  if (method === 'GET' && path === '/v1/payment_methods') {
    const data = [...cards.values()]
      .filter((card) => card.customer === query.customer)
      .sort((a, b) => b.created - a.created)
      .map(cardObject);
    return ok(list('/v1/payment_methods', data));
  }
  const match = path.match(/^\/v1\/payment_methods\/([^/]+)(?:\/(attach|detach))?$/);
  if (!match) return undefined;
  const card = cards.get(match[1]!);
  if (!card) return missing('PaymentMethod', match[1]!);
  if (method === 'POST' && match[2] === 'attach') {
    if (card.customer)
      return error(
        400,
        'invalid_request_error',
        'The payment method you provided has already been attached to a customer.',
      );
    card.customer = String(body.customer);
  }
  if (method === 'POST' && match[2] === 'detach') {
    const owner = card.customer && customers.get(card.customer);
    const settings = owner ? (owner.invoice_settings as { default_payment_method: string | null }) : null;
    if (owner && settings?.default_payment_method === card.id)
      owner.invoice_settings = { default_payment_method: null };
    card.customer = null;
  }
  return ok(cardObject(card));
};
