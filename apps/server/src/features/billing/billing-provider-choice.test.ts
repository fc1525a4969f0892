import { randomBytes } from 'node:crypto';
import { billingMessages } from '@waitlist/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY, type FakeStripe, startFakeStripe } from '../../test/fake-stripe.ts';
import { auth, createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { billingCall, changePlan, userRow } from './billing.test-helpers.ts';

const stripeEnv = (url: string, overrides: Record<string, string> = {}) => ({
  STRIPE_SECRET_KEY: FAKE_SECRET_KEY,
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fake',
  STRIPE_WEBHOOK_SECRET: 'whsec_fake',
  STRIPE_API_URL: url,
  STRIPE_PRICE_STARTER_MONTHLY: FAKE_PRICES.STARTER.monthly,
  STRIPE_PRICE_STARTER_YEARLY: FAKE_PRICES.STARTER.yearly,
  STRIPE_PRICE_GROWTH_MONTHLY: FAKE_PRICES.GROWTH.monthly,
  STRIPE_PRICE_GROWTH_YEARLY: FAKE_PRICES.GROWTH.yearly,
  ...overrides,
});

describe('config.billing', () => {
  it('is local without STRIPE_SECRET_KEY, and Stripe is not configured without a price or publishable key', () => {
    expect(loadConfig({}).billing).toEqual({ provider: 'local', configured: true });
    const complete = loadConfig(stripeEnv('http://127.0.0.1:1'));
    expect(complete.billing).toMatchObject({
      provider: 'stripe',
      configured: true,
      secretKey: FAKE_SECRET_KEY,
      publishableKey: 'pk_test_fake',
      webhookSecret: 'whsec_fake',
      apiUrl: 'http://127.0.0.1:1',
      prices: FAKE_PRICES,
    });
    expect(
      loadConfig(stripeEnv('http://127.0.0.1:1', { STRIPE_PRICE_GROWTH_YEARLY: '' })).billing.configured,
    ).toBe(false);
    expect(
      loadConfig(stripeEnv('http://127.0.0.1:1', { STRIPE_PUBLISHABLE_KEY: '' })).billing.configured,
    ).toBe(false);
  });
});

describe('with Stripe configured', () => {
  let stripe: FakeStripe;
  let t: TestApp;
  let incomplete: TestApp;
  beforeAll(async () => {
    stripe = await startFakeStripe();
    [t, incomplete] = await Promise.all([
      createTestApp({ env: stripeEnv(stripe.url) }),
      createTestApp({ env: stripeEnv(stripe.url, { STRIPE_PRICE_STARTER_MONTHLY: '' }) }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), incomplete?.close()]);
    await stripe?.close();
  });

  it('tells the web app to use Stripe Elements with the publishable key', async () => {
    const response = await t.app.inject({ url: '/api/v1/config' });
    expect(response.json().billing).toEqual({
      provider: 'stripe',
      publishableKey: 'pk_test_fake',
      configured: true,
    });
  });

  it('lets the browser load Stripe Elements (script, frames, API), which local billing does not need', async () => {
    const csp = String((await t.app.inject({ url: '/api/v1/health' })).headers['content-security-policy']);
    expect(csp).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
    expect(csp).toMatch(/frame-src [^;]*https:\/\/js\.stripe\.com [^;]*https:\/\/hooks\.stripe\.com/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
    const local = await createTestApp();
    try {
      const localCsp = String(
        (await local.app.inject({ url: '/api/v1/health' })).headers['content-security-policy'],
      );
      expect(localCsp).not.toContain('stripe');
    } finally {
      await local.close();
    }
  });

  it('has no local pages, no local card confirmation and no billing clock', async () => {
    for (const [method, url] of [
      ['GET', '/billing/local/checkout/cs_aaaaaaaaaaaa'],
      ['GET', '/billing/local/portal/bps_aaaaaaaaaaaa'],
      ['GET', '/billing/local/invoices/in_aaaaaaaaaaaa/pdf'],
      ['POST', '/api/v1/billing/local/setup-intents/confirm'],
      ['POST', '/api/v1/dev/billing/advance'],
      ['GET', '/api/v1/dev/billing/clock'],
      ['POST', '/api/v1/dev/billing/reset'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(404);
    }
  });

  it('answers billing calls with the not-configured message while a price id is missing', async () => {
    expect((await incomplete.app.inject({ url: '/api/v1/config' })).json().billing).toEqual({
      provider: 'stripe',
      publishableKey: 'pk_test_fake',
      configured: false,
    });
    const owner = await onboardedUser(incomplete);
    const response = await billingCall(incomplete, owner.token, 'GET', '/stripe/payment-methods');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ success: false, message: billingMessages.notConfigured });
  });
});

describe('Stripe wired into the app from the STRIPE_* environment', () => {
  const WEBHOOK_SECRET = 'whsec_wiring_test';
  // Prices of our own (not the local ones, not the fallback), so an answer can only have come from Stripe.
  const PRICES = [
    { id: FAKE_PRICES.STARTER.monthly, unit_amount: 3100, currency: 'usd', interval: 'month' as const },
    { id: FAKE_PRICES.STARTER.yearly, unit_amount: 29900, currency: 'usd', interval: 'year' as const },
    { id: FAKE_PRICES.GROWTH.monthly, unit_amount: 8100, currency: 'usd', interval: 'month' as const },
    { id: FAKE_PRICES.GROWTH.yearly, unit_amount: 77700, currency: 'usd', interval: 'year' as const },
  ];
  let fake: FakeStripe;
  let t: TestApp;
  let local: TestApp;
  beforeAll(async () => {
    fake = await startFakeStripe({ prices: PRICES });
    [t, local] = await Promise.all([
      createTestApp({
        env: stripeEnv(fake.url, {
          STRIPE_PUBLISHABLE_KEY: 'pk_test_wiring',
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        }),
      }),
      createTestApp(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), local?.close()]);
    await fake?.close();
  });

  const webhook = (type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET) => {
    const payload = JSON.stringify({
      id: `evt_${randomBytes(8).toString('hex')}`,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: Math.floor(t.clock.now().getTime() / 1000),
      type,
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      payload,
    });
  };

  it('registers POST /api/v1/webhooks/stripe with Stripe billing only (Fastify refuses a second registration)', async () => {
    expect(t.app.hasRoute({ method: 'POST', url: '/api/v1/webhooks/stripe' })).toBe(true);
    expect(local.app.hasRoute({ method: 'POST', url: '/api/v1/webhooks/stripe' })).toBe(false);
    expect((await local.app.inject({ method: 'POST', url: '/api/v1/webhooks/stripe' })).statusCode).toBe(404);
  });

  it('GET /config: provider stripe, configured, with the publishable key', async () => {
    const response = await t.app.inject({ url: '/api/v1/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json().billing).toEqual({
      provider: 'stripe',
      configured: true,
      publishableKey: 'pk_test_wiring',
    });
  });

  it('GET /stripe/pricing answers from the Price objects in Stripe', async () => {
    const owner = await onboardedUser(t);
    fake.clear();
    const response = await billingCall(t, owner.token, 'GET', '/stripe/pricing');
    expect(response.statusCode).toBe(200);
    expect(response.json().pricing).toEqual({
      STARTER: { monthly: { amount: 3100, currency: 'usd' }, yearly: { amount: 29900, currency: 'usd' } },
      GROWTH: { monthly: { amount: 8100, currency: 'usd' }, yearly: { amount: 77700, currency: 'usd' } },
    });
    expect(
      fake
        .find('GET', /^\/v1\/prices\//)
        .map((request) => request.path)
        .sort(),
    ).toEqual(
      Object.values(FAKE_PRICES)
        .flatMap((ids) => Object.values(ids).map((id) => `/v1/prices/${id}`))
        .sort(),
    );
  });

  it('links the owner to a Stripe customer, syncs a signed subscription webhook, and deletes the customer with the account', async () => {
    const owner = await onboardedUser(t);
    fake.clear();

    // The Billing tab's card form starts with a SetupIntent: the first one creates the customer.
    const intent = await billingCall(t, owner.token, 'POST', '/stripe/setup-intent');
    expect(intent.statusCode).toBe(200);
    expect(intent.json().clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    const [created] = fake.find('POST', '/v1/customers');
    expect(created!.headers['idempotency-key']).toBe(`customer-${owner.id}`);
    expect(created!.body).toMatchObject({ email: owner.email, metadata: { userId: owner.id } });
    const customerId = (await userRow(t, owner.id)).billingCustomerId!;
    expect(fake.customers.has(customerId)).toBe(true);
    expect(fake.find('POST', '/v1/setup_intents')[0]!.body).toMatchObject({ customer: customerId });

    // Stripe.js confirms the card (attaching it to the customer); the app makes it the default and subscribes.
    const card = fake.addCard(customerId);
    const attached = await billingCall(t, owner.token, 'POST', '/stripe/payment-methods', {
      paymentMethodId: card,
    });
    expect(attached.statusCode).toBe(200);
    const subscribed = await changePlan(t, owner.token, 'STARTER', 'monthly');
    expect(subscribed.statusCode).toBe(200);
    expect(subscribed.json()).toMatchObject({ effective: 'now', invoice: { amount_paid: 3100 } });
    expect(await userRow(t, owner.id)).toMatchObject({
      subscriptionPlan: 'starter',
      subscriptionPeriod: 'monthly',
    });

    // The owner switches to Growth in the hosted portal; Stripe tells us with a signed webhook.
    const [subscription] = [...fake.subscriptions.values()].filter((sub) => sub.customer === customerId);
    subscription!.price = FAKE_PRICES.GROWTH.monthly;
    const object = fake.subscriptionObject(subscription!.id);
    const forged = await webhook('customer.subscription.updated', object, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect((await userRow(t, owner.id)).subscriptionPlan).toBe('starter');
    const delivered = await webhook('customer.subscription.updated', object);
    expect(delivered.statusCode).toBe(200);
    expect(delivered.json()).toEqual({ received: true, duplicate: false });
    expect(await userRow(t, owner.id)).toMatchObject({
      subscriptionPlan: 'growth',
      subscriptionPeriod: 'monthly',
      subscriptionStatus: 'active',
      currentPeriodEnd: new Date(subscription!.periodEnd * 1000),
    });

    // Deleting the account deletes the customer, which ends the subscription in Stripe: no further charge.
    fake.clear();
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/account',
      headers: auth(owner.token),
    });
    expect(deleted.statusCode).toBe(200);
    expect(fake.find('DELETE', `/v1/customers/${customerId}`)).toHaveLength(1);
    expect(subscription!.status).toBe('canceled');
    expect(fake.customers.get(customerId)).toMatchObject({ deleted: true });
  });
});
