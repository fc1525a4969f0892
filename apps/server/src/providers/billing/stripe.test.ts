import { billingMessages } from '@waitlist/contract';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createManualClock } from '../../lib/clock.ts';
import {
  DECLINED_MESSAGE,
  FAKE_PRICES,
  FAKE_SECRET_KEY,
  type FakeStripe,
  INSUFFICIENT_FUNDS_MESSAGE,
  type RecordedRequest,
  startFakeStripe,
} from '../../test/fake-stripe.ts';
import { type BillingProvider, createBillingProvider } from './index.ts';
import { PaymentError } from './payment-error.ts';
import { createStripeBillingProvider, type StripeProviderOptions } from './stripe.ts';

/**
 * Contract tests of the Stripe provider: the real SDK talks to a local server that answers like the Stripe
 * API (test/fake-stripe.ts), and the tests assert what the SDK sends (paths, form bodies, headers).
 */

let fake: FakeStripe;
let clock: ReturnType<typeof createManualClock>;
let stripe: BillingProvider;
const DAY = 24 * 60 * 60;

const providerWith = (overrides: Partial<StripeProviderOptions> = {}) =>
  createStripeBillingProvider({
    secretKey: FAKE_SECRET_KEY,
    publishableKey: 'pk_test_fake',
    webhookSecret: 'whsec_fake',
    apiUrl: fake.url,
    prices: { STARTER: { ...FAKE_PRICES.STARTER }, GROWTH: { ...FAKE_PRICES.GROWTH } },
    publicUrl: 'http://app.test',
    clock,
    ...overrides,
  });

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.close());
beforeEach(() => {
  clock = createManualClock(new Date(fake.now * 1000));
  stripe = providerWith();
  fake.clear();
});

let userCounter = 0;
async function newCustomer() {
  userCounter += 1;
  return stripe.createCustomer({
    id: `00000000-0000-4000-8000-${String(userCounter).padStart(12, '0')}`,
    email: `owner${userCounter}@example.com`,
    name: 'Bella Rossi',
  });
}
/** A customer with a default card, as after the Billing tab's add-card flow. */
async function customerWithCard(decline: 'generic_decline' | 'insufficient_funds' | null = null) {
  const customerId = await newCustomer();
  const card = fake.addCard(customerId, { decline });
  await stripe.setDefaultPaymentMethod(customerId, card);
  fake.clear();
  return { customerId, card };
}
const only = (method: string, path: string | RegExp): RecordedRequest => {
  const found = fake.find(method, path);
  expect(found, `${method} ${path}`).toHaveLength(1);
  return found[0]!;
};
const subscriptionOf = (customerId: string) =>
  [...fake.subscriptions.values()].filter((sub) => sub.customer === customerId);

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

describe('cards', () => {
  it('creates an off-session card SetupIntent and returns its client secret', async () => {
    const customerId = await newCustomer();
    fake.clear();
    const { clientSecret } = await stripe.createSetupIntent(customerId);
    expect(clientSecret).toMatch(/^seti_\w+_secret_\w+$/);
    expect(only('POST', '/v1/setup_intents').body).toEqual({
      customer: customerId,
      usage: 'off_session',
      allowed_payment_method_types: ['card'],
    });
  });

  it('attaches a card, makes the first one the default, and lists brand, last4, expiry and default', async () => {
    const customerId = await newCustomer();
    const first = fake.addCard(null, { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 });
    fake.clear();
    await stripe.attachPaymentMethod(customerId, first);
    expect(only('POST', `/v1/payment_methods/${first}/attach`).body).toEqual({ customer: customerId });
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: first },
    });

    // The second card, already attached by the SetupIntent Stripe Elements confirmed: no second attach.
    const second = fake.addCard(customerId, {
      brand: 'mastercard',
      last4: '4444',
      exp_month: 1,
      exp_year: 2030,
    });
    fake.clear();
    await stripe.attachPaymentMethod(customerId, second);
    expect(fake.find('POST', `/v1/payment_methods/${second}/attach`)).toHaveLength(0);
    expect(fake.find('POST', `/v1/customers/${customerId}`)).toHaveLength(0);

    expect(await stripe.listPaymentMethods(customerId)).toEqual([
      { id: second, brand: 'mastercard', last4: '4444', exp_month: 1, exp_year: 2030, isDefault: false },
      { id: first, brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031, isDefault: true },
    ]);
    const listing = fake.find('GET', '/v1/payment_methods').at(-1)!;
    expect(listing.query).toMatchObject({ customer: customerId, type: 'card' });
  });

  it('sets the default on the customer and on the live subscription, so renewals charge it', async () => {
    const { customerId, card } = await customerWithCard();
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-default');
    const other = fake.addCard(customerId, { last4: '1881' });
    fake.clear();
    await stripe.setDefaultPaymentMethod(customerId, other);
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: other },
    });
    const [subscription] = subscriptionOf(customerId);
    expect(only('POST', `/v1/subscriptions/${subscription!.id}`).body).toEqual({
      default_payment_method: other,
    });
    const methods = await stripe.listPaymentMethods(customerId);
    expect(methods.find((method) => method.isDefault)?.id).toBe(other);
    expect(methods.find((method) => method.id === card)?.isDefault).toBe(false);
  });

  it('detaches the default card and promotes the newest remaining card', async () => {
    const customerId = await newCustomer();
    const oldest = fake.addCard(customerId, { last4: '0001' });
    const newest = fake.addCard(customerId, { last4: '0003' });
    const middle = fake.addCard(customerId, { last4: '0002' });
    fake.cards.get(middle)!.created = fake.cards.get(oldest)!.created + 1;
    fake.cards.get(newest)!.created = fake.cards.get(oldest)!.created + 2;
    await stripe.setDefaultPaymentMethod(customerId, oldest);
    fake.clear();
    await stripe.detachPaymentMethod(customerId, oldest);
    expect(only('POST', `/v1/payment_methods/${oldest}/detach`)).toBeDefined();
    expect(only('POST', `/v1/customers/${customerId}`).body).toEqual({
      invoice_settings: { default_payment_method: newest },
    });
    const methods = await stripe.listPaymentMethods(customerId);
    expect(methods.map((method) => [method.last4, method.isDefault])).toEqual([
      ['0003', true],
      ['0002', false],
    ]);

    // Removing a card that is not the default leaves the default alone.
    fake.clear();
    await stripe.detachPaymentMethod(customerId, middle);
    expect(fake.find('POST', `/v1/customers/${customerId}`)).toHaveLength(0);
    // Removing the last card clears the default.
    await stripe.detachPaymentMethod(customerId, newest);
    expect(only('POST', `/v1/customers/${customerId}`).rawBody).toBe(
      'invoice_settings[default_payment_method]=',
    );
    expect(await stripe.listPaymentMethods(customerId)).toEqual([]);
  });

  it("refuses another customer's card and unknown cards as not found", async () => {
    const owner = await newCustomer();
    const stranger = await newCustomer();
    const strangersCard = fake.addCard(stranger);
    for (const action of [
      () => stripe.setDefaultPaymentMethod(owner, strangersCard),
      () => stripe.detachPaymentMethod(owner, strangersCard),
      () => stripe.attachPaymentMethod(owner, strangersCard),
      () => stripe.detachPaymentMethod(owner, 'pm_does_not_exist'),
    ]) {
      await expect(action()).rejects.toMatchObject({
        name: 'PaymentError',
        code: 'not_found',
        message: billingMessages.paymentMethodNotFound,
      });
    }
    expect(fake.find('POST', `/v1/payment_methods/${strangersCard}/detach`)).toHaveLength(0);
    expect(fake.cards.get(strangersCard)!.customer).toBe(stranger);
  });
});

describe('plan changes', () => {
  it('subscribes from the trial: the price, the default card, error_if_incomplete, charged now', async () => {
    const { customerId, card } = await customerWithCard();
    const result = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-sub',
    );
    const request = only('POST', '/v1/subscriptions');
    expect(request.body).toEqual({
      customer: customerId,
      items: [{ price: FAKE_PRICES.STARTER.monthly, quantity: '1' }],
      default_payment_method: card,
      payment_behavior: 'error_if_incomplete',
      metadata: { plan: 'starter', billingPeriod: 'monthly' },
      expand: ['latest_invoice'],
    });
    expect(request.headers['idempotency-key']).toBe('plan-change:k-sub:create');

    const [created] = subscriptionOf(customerId);
    expect(result.effective).toBe('now');
    expect(result.subscription).toEqual({
      id: created!.id,
      status: 'active',
      plan: 'starter',
      billingPeriod: 'monthly',
      cancel_at_period_end: false,
      // Read from the subscription item, where recent API versions keep the period.
      current_period_start: created!.periodStart,
      current_period_end: created!.periodEnd,
      created: created!.created,
      pending_change: null,
    });
    expect(created!.periodEnd - created!.periodStart).toBe(30 * DAY); // one calendar month: 23 Nov → 23 Dec
    expect(result.invoice).toMatchObject({
      amount_paid: 2900,
      amount_due: 2900,
      status: 'paid',
      currency: 'usd',
    });
    expect(await stripe.getSubscription(customerId)).toEqual(result.subscription);
  });

  it('sends the same idempotency key for a repeated change, and Stripe applies it once', async () => {
    const { customerId } = await customerWithCard();
    const first = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-twice',
    );
    // A double submit that raced past the checks: it read the subscriptions before the first one existed.
    fake.force({
      method: 'GET',
      path: '/v1/subscriptions',
      status: 200,
      body: { object: 'list', url: '/v1/subscriptions', has_more: false, data: [] },
    });
    const replay = await providerWith().changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-twice',
    );
    const creates = fake.find('POST', '/v1/subscriptions');
    expect(creates).toHaveLength(2);
    expect(creates.map((request) => request.headers['idempotency-key'])).toEqual([
      'plan-change:k-twice:create',
      'plan-change:k-twice:create',
    ]);
    expect(replay.subscription?.id).toBe(first.subscription?.id);
    expect(replay.invoice?.id).toBe(first.invoice?.id);
    expect(subscriptionOf(customerId)).toHaveLength(1);
    expect([...fake.invoices.values()].filter((invoice) => invoice.customer === customerId)).toHaveLength(1);
  });

  it('keeps the idempotency key when the SDK retries a failed request', async () => {
    const { customerId } = await customerWithCard();
    fake.force({
      method: 'POST',
      path: '/v1/subscriptions',
      status: 500,
      body: { error: { type: 'api_error', message: 'Something went wrong on our end.' } },
      headers: { 'stripe-should-retry': 'true' },
    });
    const result = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'yearly' },
      'k-retry',
    );
    const attempts = fake.find('POST', '/v1/subscriptions');
    expect(attempts).toHaveLength(2);
    expect(new Set(attempts.map((request) => request.headers['idempotency-key']))).toEqual(
      new Set(['plan-change:k-retry:create']),
    );
    expect(result.subscription?.billingPeriod).toBe('yearly');
    expect(subscriptionOf(customerId)).toHaveLength(1);
  });

  it('refuses to subscribe without a default card, before calling Stripe to charge', async () => {
    const customerId = await newCustomer();
    fake.clear();
    await expect(
      stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-nocard'),
    ).rejects.toMatchObject({
      name: 'PaymentError',
      code: 'no_payment_method',
      message: billingMessages.noPaymentMethod,
    });
    expect(fake.find('POST', '/v1/subscriptions')).toHaveLength(0);
  });

  it("maps a declined card to a PaymentError with Stripe's own message", async () => {
    const declined = await customerWithCard('generic_decline');
    const error = await stripe
      .changePlan(declined.customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-declined')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentError);
    expect(error).toMatchObject({ code: 'card_declined', message: DECLINED_MESSAGE });
    expect(subscriptionOf(declined.customerId)).toHaveLength(0);

    const broke = await customerWithCard('insufficient_funds');
    await expect(
      stripe.changePlan(broke.customerId, { plan: 'growth', billingPeriod: 'yearly' }, 'k-broke'),
    ).rejects.toMatchObject({
      name: 'PaymentError',
      code: 'insufficient_funds',
      message: INSUFFICIENT_FUNDS_MESSAGE,
    });
  });

  it('upgrades now: the new price on the same item, always_invoice proration, paid with the default card', async () => {
    const { customerId, card } = await customerWithCard();
    const start = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-up-1',
    );
    const subscriptionId = start.subscription!.id;
    const itemId = fake.subscriptions.get(subscriptionId)!.itemId;
    fake.now += 10 * DAY;
    fake.clear();
    try {
      const result = await stripe.changePlan(
        customerId,
        { plan: 'growth', billingPeriod: 'monthly' },
        'k-up-2',
      );
      const request = only('POST', `/v1/subscriptions/${subscriptionId}`);
      expect(request.body).toEqual({
        items: [{ id: itemId, price: FAKE_PRICES.GROWTH.monthly, quantity: '1' }],
        proration_behavior: 'always_invoice',
        payment_behavior: 'error_if_incomplete',
        default_payment_method: card,
        metadata: { plan: 'growth', billingPeriod: 'monthly' },
        expand: ['latest_invoice'],
      });
      expect(request.headers['idempotency-key']).toBe(`plan-change:k-up-2:upgrade:${subscriptionId}`);
      expect(result.effective).toBe('now');
      expect(result.subscription).toMatchObject({
        plan: 'growth',
        billingPeriod: 'monthly',
        pending_change: null,
      });
      // 20 of 30 days left: round((7900 − 2900) × 20 / 30), as the fake prorates it.
      expect(result.invoice).toMatchObject({ amount_paid: 3333, status: 'paid' });
    } finally {
      fake.now -= 10 * DAY;
    }
  });

  it('upgrades monthly → yearly now, and a declined upgrade leaves the plan unchanged', async () => {
    const { customerId, card } = await customerWithCard();
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-year-1');
    const yearly = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'yearly' },
      'k-year-2',
    );
    expect(yearly.effective).toBe('now');
    expect(yearly.subscription).toMatchObject({ plan: 'starter', billingPeriod: 'yearly' });

    fake.cards.get(card)!.decline = 'generic_decline';
    await expect(
      stripe.changePlan(customerId, { plan: 'growth', billingPeriod: 'yearly' }, 'k-year-3'),
    ).rejects.toMatchObject({ name: 'PaymentError', code: 'card_declined', message: DECLINED_MESSAGE });
    expect(await stripe.getSubscription(customerId)).toMatchObject({
      plan: 'starter',
      billingPeriod: 'yearly',
    });
  });

  it('downgrades at period end through a subscription schedule, shown as pending_change', async () => {
    const { customerId } = await customerWithCard();
    const growth = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-down-1',
    );
    const subscriptionId = growth.subscription!.id;
    const { periodStart, periodEnd } = fake.subscriptions.get(subscriptionId)!;
    fake.clear();

    const result = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-down-2',
    );
    const create = only('POST', '/v1/subscription_schedules');
    expect(create.body).toEqual({ from_subscription: subscriptionId });
    expect(create.headers['idempotency-key']).toBe(`plan-change:k-down-2:schedule:${subscriptionId}`);
    const scheduleId = fake.subscriptions.get(subscriptionId)!.schedule!;
    const update = only('POST', `/v1/subscription_schedules/${scheduleId}`);
    expect(update.body).toEqual({
      end_behavior: 'release',
      proration_behavior: 'none',
      phases: [
        {
          items: [{ price: FAKE_PRICES.GROWTH.monthly, quantity: '1' }],
          start_date: String(periodStart),
          end_date: String(periodEnd),
          proration_behavior: 'none',
        },
        {
          items: [{ price: FAKE_PRICES.STARTER.monthly, quantity: '1' }],
          duration: { interval: 'month', interval_count: '1' },
          proration_behavior: 'none',
          metadata: { plan: 'starter', billingPeriod: 'monthly' },
        },
      ],
    });
    expect(update.headers['idempotency-key']).toBe(`plan-change:k-down-2:phases:${scheduleId}`);
    expect(fake.find('POST', `/v1/subscriptions/${subscriptionId}`)).toHaveLength(0);

    const pending = { plan: 'starter', billingPeriod: 'monthly', effective_at: periodEnd };
    expect(result).toMatchObject({
      effective: 'period_end',
      invoice: null,
      subscription: { plan: 'growth', billingPeriod: 'monthly', pending_change: pending },
    });
    // Read back: the subscription list expands the schedule.
    fake.clear();
    expect(await stripe.getSubscription(customerId)).toMatchObject({
      plan: 'growth',
      pending_change: pending,
    });
    expect(only('GET', '/v1/subscriptions').query).toEqual({
      customer: customerId,
      limit: '20',
      expand: ['data.schedule'],
    });

    // An upgrade while a downgrade is pending releases the schedule first.
    fake.clear();
    const toYearly = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'yearly' },
      'k-down-3',
    );
    expect(toYearly.effective).toBe('now');
    expect(only('POST', `/v1/subscription_schedules/${scheduleId}/release`)).toBeDefined();
    expect(fake.subscriptions.get(subscriptionId)!.schedule).toBeNull();
    const back = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-down-4',
    );
    expect(back).toMatchObject({
      effective: 'period_end',
      subscription: { billingPeriod: 'yearly', pending_change: { plan: 'growth', billingPeriod: 'monthly' } },
    });
    // Yearly → monthly is cheaper, so it waits too; another cheaper choice updates the same schedule.
    const secondSchedule = fake.subscriptions.get(subscriptionId)!.schedule!;
    fake.clear();
    const starterYearly = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'yearly' },
      'k-down-5',
    );
    expect(fake.find('POST', '/v1/subscription_schedules')).toHaveLength(0);
    expect(only('POST', `/v1/subscription_schedules/${secondSchedule}`).body).toMatchObject({
      phases: [
        { items: [{ price: FAKE_PRICES.GROWTH.yearly }] },
        { items: [{ price: FAKE_PRICES.STARTER.yearly }], duration: { interval: 'year' } },
      ],
    });
    expect(starterYearly.subscription?.pending_change).toMatchObject({
      plan: 'starter',
      billingPeriod: 'yearly',
    });
  });

  it('subscribes anew when a key is reused after the subscription it created has ended', async () => {
    const { customerId } = await customerWithCard();
    const first = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-reuse',
    );
    fake.subscriptions.get(first.subscription!.id)!.status = 'canceled';
    fake.clear();
    const again = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-reuse',
    );
    expect(
      fake.find('POST', '/v1/subscriptions').map((request) => request.headers['idempotency-key']),
    ).toEqual(['plan-change:k-reuse:create', `plan-change:k-reuse:create-after:${first.subscription!.id}`]);
    expect(only('GET', `/v1/subscriptions/${first.subscription!.id}`)).toBeDefined();
    expect(again.subscription).toMatchObject({ status: 'active', plan: 'starter' });
    expect(again.subscription!.id).not.toBe(first.subscription!.id);
    expect(subscriptionOf(customerId).filter((sub) => sub.status === 'active')).toHaveLength(1);
  });

  it('schedules anew when a downgrade key is reused after its schedule was released', async () => {
    const { customerId } = await customerWithCard();
    const growth = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-rs-1',
    );
    const subscriptionId = growth.subscription!.id;
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-rs-2');
    const firstSchedule = fake.subscriptions.get(subscriptionId)!.schedule!;
    await stripe.changePlan(customerId, { plan: 'growth', billingPeriod: 'monthly' }, 'k-rs-3');
    expect(fake.schedules.get(firstSchedule)!.status).toBe('released');
    fake.clear();

    const again = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-rs-2',
    );
    const secondSchedule = fake.subscriptions.get(subscriptionId)!.schedule!;
    expect(secondSchedule).not.toBe(firstSchedule);
    expect(fake.find('POST', '/v1/subscription_schedules').map((r) => r.headers['idempotency-key'])).toEqual([
      `plan-change:k-rs-2:schedule:${subscriptionId}`,
      `plan-change:k-rs-2:schedule-after:${firstSchedule}`,
    ]);
    expect(only('POST', `/v1/subscription_schedules/${secondSchedule}`).headers['idempotency-key']).toBe(
      `plan-change:k-rs-2:phases:${secondSchedule}`,
    );
    expect(again).toMatchObject({
      effective: 'period_end',
      subscription: { pending_change: { plan: 'starter' } },
    });
  });

  it('choosing the current plan charges nothing and drops a pending downgrade', async () => {
    const { customerId } = await customerWithCard();
    await stripe.changePlan(customerId, { plan: 'growth', billingPeriod: 'monthly' }, 'k-same-1');
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-same-2');
    fake.clear();
    const result = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-same-3',
    );
    expect(result).toMatchObject({
      effective: 'none',
      invoice: null,
      subscription: { pending_change: null },
    });
    expect(fake.find('POST', /\/release$/)).toHaveLength(1);
    expect(fake.find('POST', /^\/v1\/subscriptions/)).toHaveLength(0);
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect([...fake.invoices.values()].filter((invoice) => invoice.customer === customerId)).toHaveLength(1);
    expect((await stripe.getSubscription(customerId))?.pending_change).toBeNull();
  });

  it('cancels at period end (releasing a pending downgrade first) and resumes', async () => {
    const { customerId } = await customerWithCard();
    const growth = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-cancel-1',
    );
    const subscriptionId = growth.subscription!.id;
    await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-cancel-2');
    fake.clear();

    const cancelled = await stripe.cancelAtPeriodEnd(customerId);
    expect(
      fake.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual([
      expect.stringMatching(/^\/v1\/subscription_schedules\/sub_sched_\w+\/release$/),
      `/v1/subscriptions/${subscriptionId}`,
    ]);
    expect(fake.find('POST', /\/release$/)[0]!.body).toEqual({ preserve_cancel_date: 'true' });
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toEqual({
      cancel_at_period_end: 'true',
    });
    expect(cancelled).toMatchObject({ status: 'active', cancel_at_period_end: true, pending_change: null });

    fake.clear();
    const resumed = await stripe.resume(customerId);
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toEqual({
      cancel_at_period_end: 'false',
    });
    expect(resumed.cancel_at_period_end).toBe(false);
  });

  it('an upgrade while cancelling withdraws the cancellation in the same update, as local billing does', async () => {
    const { customerId } = await customerWithCard();
    const starter = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-wc-up-1',
    );
    const subscriptionId = starter.subscription.id;
    await stripe.cancelAtPeriodEnd(customerId);
    fake.clear();

    const result = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-wc-up-2',
    );
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toMatchObject({
      items: [{ price: FAKE_PRICES.GROWTH.monthly }],
      proration_behavior: 'always_invoice',
      cancel_at_period_end: 'false',
    });
    expect(result).toMatchObject({
      effective: 'now',
      subscription: { plan: 'growth', cancel_at_period_end: false, pending_change: null },
    });
    expect(fake.subscriptions.get(subscriptionId)!.cancelAtPeriodEnd).toBe(false);
    expect((await stripe.getSubscription(customerId))?.cancel_at_period_end).toBe(false);
  });

  it('a downgrade while cancelling withdraws the cancellation first, then schedules the change', async () => {
    const { customerId } = await customerWithCard();
    const growth = await stripe.changePlan(
      customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      'k-wc-down-1',
    );
    const subscriptionId = growth.subscription.id;
    await stripe.cancelAtPeriodEnd(customerId);
    fake.clear();

    const result = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-wc-down-2',
    );
    const scheduleId = fake.subscriptions.get(subscriptionId)!.schedule!;
    // The cancellation is withdrawn first, before a schedule takes over the subscription's cancellation behaviour.
    expect(
      fake.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual([
      `/v1/subscriptions/${subscriptionId}`,
      '/v1/subscription_schedules',
      `/v1/subscription_schedules/${scheduleId}`,
    ]);
    const withdraw = only('POST', `/v1/subscriptions/${subscriptionId}`);
    expect(withdraw.body).toEqual({ cancel_at_period_end: 'false', expand: ['schedule'] });
    expect(withdraw.headers['idempotency-key']).toBe(`plan-change:k-wc-down-2:resume:${subscriptionId}`);
    const periodEnd = fake.subscriptions.get(subscriptionId)!.periodEnd;
    const expected = {
      plan: 'growth',
      cancel_at_period_end: false,
      pending_change: { plan: 'starter', billingPeriod: 'monthly', effective_at: periodEnd },
    };
    expect(result).toMatchObject({ effective: 'period_end', invoice: null, subscription: expected });
    expect(await stripe.getSubscription(customerId)).toMatchObject(expected);
  });

  it('withdraws a cancel_at date set in the hosted portal on a plan change, and on resume', async () => {
    const { customerId } = await customerWithCard();
    const starter = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-portal-1',
    );
    const subscriptionId = starter.subscription.id;
    const portalCancels = () => {
      const sub = fake.subscriptions.get(subscriptionId)!;
      sub.cancelAt = sub.periodEnd;
    };
    portalCancels();
    expect((await stripe.getSubscription(customerId))?.cancel_at_period_end).toBe(true);
    fake.clear();

    // Upgrade (monthly → yearly): in the same update.
    const yearly = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'yearly' },
      'k-portal-2',
    );
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toMatchObject({ cancel_at: '' });
    expect(yearly.subscription.cancel_at_period_end).toBe(false);
    expect(fake.subscriptions.get(subscriptionId)!.cancelAt).toBeNull();

    // Downgrade (yearly → monthly): before the schedule.
    portalCancels();
    fake.clear();
    const monthly = await stripe.changePlan(
      customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-portal-3',
    );
    expect(only('POST', `/v1/subscriptions/${subscriptionId}`).body).toEqual({
      cancel_at: '',
      expand: ['schedule'],
    });
    expect(monthly).toMatchObject({
      effective: 'period_end',
      subscription: { cancel_at_period_end: false, pending_change: { billingPeriod: 'monthly' } },
    });

    // Resume on another subscription the portal set to cancel.
    const other = await customerWithCard();
    const otherSub = await stripe.changePlan(
      other.customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      'k-portal-4',
    );
    fake.subscriptions.get(otherSub.subscription.id)!.cancelAt = otherSub.subscription.current_period_end;
    fake.clear();
    const resumed = await stripe.resume(other.customerId);
    expect(only('POST', `/v1/subscriptions/${otherSub.subscription.id}`).body).toEqual({ cancel_at: '' });
    expect(resumed.cancel_at_period_end).toBe(false);
  });

  it('has no subscription before subscribing; cancel and resume then fail as not found', async () => {
    const customerId = await newCustomer();
    expect(await stripe.getSubscription(customerId)).toBeNull();
    await expect(stripe.cancelAtPeriodEnd(customerId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(stripe.resume(customerId)).rejects.toMatchObject({ code: 'not_found' });
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
