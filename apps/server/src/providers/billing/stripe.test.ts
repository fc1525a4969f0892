import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY } from '../../test/fake-stripe.ts';
import { createBillingProvider } from './index.ts';
import {
  clock,
  customerWithCard,
  fake,
  newCustomer,
  only,
  providerWith,
  stripe,
  useFakeStripe,
} from './stripe.test-helpers.ts';

/** Contract tests of the Stripe provider (stripe.test-helpers.ts): the SDK set-up and customers, prices, deletion, invoices and hosted pages. */

useFakeStripe();

describe('the SDK pointed at STRIPE_API_URL', () => {
  it('authenticates with the secret key, pins the API version and keys customer creation to the user', async () => {
    const customerId = await stripe.createCustomer({
      id: 'user-1',
      email: 'bella@example.com',
      name: 'Bella Rossi',
    });
    expect(customerId).toMatch(/^cus_/);
    const request = only('POST', '/v1/customers');
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_SECRET_KEY}`);
    expect(request.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.body).toEqual({
      email: 'bella@example.com',
      name: 'Bella Rossi',
      metadata: { userId: 'user-1' },
    });
    expect(request.headers['idempotency-key']).toBe('customer-user-1');
  });

  it('keys customer creation customer-<userId>: the same user twice sends the same key and gets one customer', async () => {
    const user = {
      id: '11111111-2222-4333-8444-555555555555',
      email: 'twice@example.com',
      name: 'Bella Rossi',
    };
    // Two first calls at once (a double click on "Add card"), then a retry: all on one key.
    const [first, second] = await Promise.all([stripe.createCustomer(user), stripe.createCustomer(user)]);
    const third = await providerWith().createCustomer(user);
    const requests = fake.find('POST', '/v1/customers');
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual([
      `customer-${user.id}`,
      `customer-${user.id}`,
      `customer-${user.id}`,
    ]);
    expect(new Set([first, second, third])).toEqual(new Set([first]));
    expect([...fake.customers.values()].filter((customer) => customer.email === user.email)).toHaveLength(1);
  });

  it('keys on the details too when the owner changed them since a first call whose customer was never stored', async () => {
    const user = {
      id: '11111111-2222-4333-8444-666666666666',
      email: 'renamed@example.com',
      name: 'Bella Rossi',
    };
    const lost = await stripe.createCustomer(user);
    fake.clear();
    const renamed = { ...user, name: 'Bella Bianchi' };
    const customerId = await stripe.createCustomer(renamed);
    const [refused, keyed] = fake.find('POST', '/v1/customers');
    expect(refused!.headers['idempotency-key']).toBe(`customer-${user.id}`);
    expect(keyed!.headers['idempotency-key']).toMatch(new RegExp(`^customer-${user.id}-[0-9a-f]{32}$`));
    expect(keyed!.body).toMatchObject({ name: 'Bella Bianchi' });
    expect(customerId).not.toBe(lost);
    // Stable for these details: a retry gets the same customer.
    expect(await stripe.createCustomer(renamed)).toBe(customerId);
  });

  it('reports its configuration: publishable key, and configured only with all four prices', () => {
    expect(stripe.name).toBe('stripe');
    expect(stripe.publishableKey).toBe('pk_test_fake');
    expect(stripe.configured).toBe(true);
    const partial = providerWith({ prices: { STARTER: { monthly: 'price_starter_monthly' }, GROWTH: {} } });
    expect(partial.configured).toBe(false);
    const withoutElements = providerWith({ publishableKey: undefined });
    expect(withoutElements.configured).toBe(false);
    expect(withoutElements.publishableKey).toBeNull();
  });

  it('is what createBillingProvider builds from the STRIPE_* environment', async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
      STRIPE_PUBLISHABLE_KEY: 'pk_test_env',
      STRIPE_WEBHOOK_SECRET: 'whsec_env',
      STRIPE_API_URL: fake.url,
      STRIPE_PRICE_STARTER_MONTHLY: FAKE_PRICES.STARTER.monthly,
      STRIPE_PRICE_STARTER_YEARLY: FAKE_PRICES.STARTER.yearly,
      STRIPE_PRICE_GROWTH_MONTHLY: FAKE_PRICES.GROWTH.monthly,
      STRIPE_PRICE_GROWTH_YEARLY: FAKE_PRICES.GROWTH.yearly,
    });
    const silent = { info() {}, warn() {}, error() {}, debug() {} };
    const provider = await createBillingProvider(config.billing, {
      db: {} as Database, // Stripe keeps its own state; only local billing uses the database
      clock,
      logger: silent,
      publicUrl: 'http://app.test',
    });
    expect(provider).toMatchObject({ name: 'stripe', configured: true, publishableKey: 'pk_test_env' });
    expect((await provider.getPricing()).GROWTH.yearly).toEqual({ amount: 75840, currency: 'usd' });
    expect(fake.find('GET', /^\/v1\/prices\//)).toHaveLength(4);
  });

  it('updates the billing details of the customer', async () => {
    const customerId = await newCustomer();
    fake.clear();
    await stripe.updateCustomer(customerId, {
      name: 'Bella Salon LLC',
      email: 'billing@bella.example',
      address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    });
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      name: 'Bella Salon LLC',
      email: 'billing@bella.example',
      address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
    });
  });
});

describe('pricing', () => {
  it('reads unit_amount and currency of the four Price objects, keyed STARTER/GROWTH monthly/yearly', async () => {
    const pricing = await stripe.getPricing();
    expect(pricing).toEqual({
      STARTER: { monthly: { amount: 2900, currency: 'usd' }, yearly: { amount: 27840, currency: 'usd' } },
      GROWTH: { monthly: { amount: 7900, currency: 'usd' }, yearly: { amount: 75840, currency: 'usd' } },
    });
    expect(
      fake
        .find('GET', /^\/v1\/prices\//)
        .map((request) => request.path)
        .sort(),
    ).toEqual([
      '/v1/prices/price_growth_monthly',
      '/v1/prices/price_growth_yearly',
      '/v1/prices/price_starter_monthly',
      '/v1/prices/price_starter_yearly',
    ]);
  });

  it('caches the prices for five minutes', async () => {
    await stripe.getPricing();
    await stripe.getPricing();
    expect(fake.find('GET', /^\/v1\/prices\//)).toHaveLength(4);
    fake.prices.get(FAKE_PRICES.GROWTH.monthly)!.unit_amount = 8900;
    clock.advance(5 * 60 * 1000 + 1);
    const pricing = await stripe.getPricing();
    expect(fake.find('GET', /^\/v1\/prices\//)).toHaveLength(8);
    expect(pricing.GROWTH.monthly.amount).toBe(8900);
    fake.prices.get(FAKE_PRICES.GROWTH.monthly)!.unit_amount = 7900;
  });
});

describe('account deletion', () => {
  it('deletes the customer with DELETE /v1/customers/:id, which ends its subscription and pending downgrade at once', async () => {
    const { customerId, card } = await customerWithCard();
    const growth = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-del-1',
    );
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-del-2');
    const subscriptionId = growth.subscription.id;
    const scheduleId = fake.subscriptions.get(subscriptionId)!.schedule!;
    fake.clear();

    await stripe.deleteCustomer!(customerId);
    // One call: Stripe cancels the customer's subscriptions itself.
    expect(fake.requests).toHaveLength(1);
    const request = only('DELETE', `/v1/customers/${customerId}`);
    expect(request.headers.authorization).toBe(`Bearer ${FAKE_SECRET_KEY}`);
    expect(request.rawBody).toBe('');
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    expect(fake.schedules.get(scheduleId)!.status).toBe('canceled');
    expect(fake.cards.get(card)!.customer).toBeNull();
    expect(await stripe.getSubscription(customerId)).toBeNull();

    // A retried account deletion: the customer is gone already, which is what was asked.
    await expect(stripe.deleteCustomer!(customerId)).resolves.toBeUndefined();
    expect(fake.find('DELETE', `/v1/customers/${customerId}`)).toHaveLength(2);
  });

  it('passes on other failures, so the account is not deleted while Stripe could still charge', async () => {
    const customerId = await newCustomer();
    fake.force({
      method: 'DELETE',
      path: `/v1/customers/${customerId}`,
      status: 401,
      body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided.' } },
    });
    await expect(stripe.deleteCustomer!(customerId)).rejects.toBeInstanceOf(Stripe.errors.StripeError);
    expect(fake.customers.get(customerId)!.deleted).toBeUndefined();
  });
});

describe('invoices and hosted pages', () => {
  it('lists invoices with number, amounts, status, hosted page and PDF', async () => {
    const { customerId } = await customerWithCard();
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-inv-1');
    const invoices = await stripe.listInvoices(customerId);
    expect(invoices).toHaveLength(1);
    const [invoice] = invoices;
    const stored = fake.invoices.get(invoice!.id)!;
    expect(invoice).toEqual({
      id: stored.id,
      number: stored.number,
      created: stored.created,
      amount_paid: 2900,
      amount_due: 2900,
      currency: 'usd',
      status: 'paid',
      description: `Subscription to ${FAKE_PRICES.STARTER.monthly}`,
      hosted_invoice_url: `https://invoice.stripe.test/i/${stored.id}`,
      invoice_pdf: `https://pay.stripe.test/invoice/${stored.id}/pdf`,
    });
    expect(fake.find('GET', '/v1/invoices').at(-1)!.query).toMatchObject({ customer: customerId });
  });

  it('creates a subscription Checkout Session with the success and cancel pages, keyed against double clicks', async () => {
    const customerId = await newCustomer();
    fake.clear();
    const request = {
      plan: 'growth' as const,
      billingPeriod: 'yearly' as const,
      successUrl: 'http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancelUrl: 'http://app.test/subscription/cancel',
    };
    const session = await stripe.createCheckoutSession(customerId, request);
    const again = await stripe.createCheckoutSession(customerId, request);
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`https://checkout.stripe.test/c/pay/${session.id}`);
    expect(again).toEqual(session);

    const [first, second] = fake.find('POST', '/v1/checkout/sessions');
    expect(first!.body).toEqual({
      mode: 'subscription',
      customer: customerId,
      line_items: [{ price: FAKE_PRICES.GROWTH.yearly, quantity: '1' }],
      success_url: 'http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/subscription/cancel',
      subscription_data: { metadata: { plan: 'growth', billingPeriod: 'yearly' } },
    });
    expect(first!.headers['idempotency-key']).toMatch(/^checkout:/);
    expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);

    // A minute later it is a new attempt, with a new session.
    clock.advance(60_000);
    const later = await stripe.createCheckoutSession(customerId, request);
    expect(later.id).not.toBe(session.id);
  });

  it('falls back to PUBLIC_URL for the Checkout pages', async () => {
    const customerId = await newCustomer();
    fake.clear();
    await stripe.createCheckoutSession(customerId, {
      plan: 'starter',
      billingPeriod: 'monthly',
      successUrl: '',
      cancelUrl: '',
    });
    expect(only('POST', '/v1/checkout/sessions').body).toMatchObject({
      success_url: 'http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'http://app.test/subscription/cancel',
    });
  });

  it('opens the hosted billing portal with the return address', async () => {
    const customerId = await newCustomer();
    fake.clear();
    const portal = await stripe.createPortalSession(customerId, 'http://app.test/account?tab=billing');
    expect(portal.url).toBe(`https://billing.stripe.test/p/session/${portal.id}`);
    expect(only('POST', '/v1/billing_portal/sessions').body).toEqual({
      customer: customerId,
      return_url: 'http://app.test/account?tab=billing',
    });
  });
});
