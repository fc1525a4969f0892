import { randomBytes } from 'node:crypto';
import type { Subscription } from '@waitlist/contract';
import { count, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Executor } from '../../db/client.ts';
import { users, webhookEvents } from '../../db/schema.ts';
import { createManualClock } from '../../lib/clock.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import type { BillingProvider } from '../../providers/billing/index.ts';
import { createStripeBillingProvider } from '../../providers/billing/stripe.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY, type FakeStripe, startFakeStripe } from '../../test/fake-stripe.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import {
  stripeWebhookRoutes,
  type WebhookBillingService,
  webhookMessages,
} from './stripe-webhooks.routes.ts';

/**
 * The webhook endpoint on a Fastify instance of its own, with a real database (PGlite or PostgreSQL) and
 * the Stripe provider talking to the fake Stripe API. Payloads are signed with the SDK's test helper.
 * The billing service is a stand-in that writes the user's subscription cache in the transaction it is
 * given, and counts its calls.
 */

const SECRET = 'whsec_contract_test_secret';
let fake: FakeStripe;
let database: DatabaseHandle;
let app: FastifyInstance;
let provider: BillingProvider;
const clock = createManualClock(new Date('2026-11-23T10:00:00Z'));
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

const syncs: { customerId: string; subscription: Subscription | null }[] = [];
let failNextSync = false;
const billingService: WebhookBillingService = {
  async findUserIdByCustomerId(customerId) {
    const [row] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.billingCustomerId, customerId));
    return row?.id ?? null;
  },
  async syncSubscription(customerId, subscription, executor?: Executor) {
    syncs.push({ customerId, subscription });
    await (executor ?? database.db)
      .update(users)
      .set(
        subscription
          ? {
              subscriptionPlan: subscription.plan,
              subscriptionPeriod: subscription.billingPeriod,
              subscriptionStatus: subscription.status,
              currentPeriodEnd: new Date(subscription.current_period_end * 1000),
            }
          : { subscriptionPlan: 'free_trial', subscriptionPeriod: null, subscriptionStatus: 'canceled' },
      )
      .where(eq(users.billingCustomerId, customerId));
    if (failNextSync) {
      failNextSync = false;
      throw new Error('sync failed after writing');
    }
  },
};

async function buildWebhookApp(webhookSecret: string | null) {
  const instance = Fastify({ logger: false });
  instance.setValidatorCompiler(validatorCompiler);
  instance.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(instance);
  await instance.register(
    async (api) => {
      await api.register(stripeWebhookRoutes, {
        provider,
        webhookSecret,
        billingService,
        db: database.db,
        clock,
      });
      // A sibling route: the raw-body parser must stay inside the webhook plugin.
      api.post('/echo', async (request) => ({ body: request.body }));
    },
    { prefix: '/api/v1' },
  );
  await instance.ready();
  return instance;
}

beforeAll(async () => {
  fake = await startFakeStripe({ now: nowSeconds() });
  database = await createTestDatabase();
  provider = createStripeBillingProvider({
    secretKey: FAKE_SECRET_KEY,
    publishableKey: 'pk_test_fake',
    webhookSecret: SECRET,
    apiUrl: fake.url,
    prices: { STARTER: { ...FAKE_PRICES.STARTER }, GROWTH: { ...FAKE_PRICES.GROWTH } },
    publicUrl: 'http://app.test',
    clock,
  });
  app = await buildWebhookApp(SECRET);
});
afterAll(async () => {
  await app.close();
  await database.close();
  await fake.close();
});
beforeEach(() => {
  syncs.length = 0;
});

/** An owner with a Stripe customer, a card and a Starter subscription in the fake Stripe account. */
async function subscribedOwner() {
  const email = `owner.${randomBytes(4).toString('hex')}@example.com`;
  const [user] = await database.db
    .insert(users)
    .values({ firstName: 'Bella', lastName: 'Rossi', email })
    .returning({ id: users.id });
  const customerId = await provider.createCustomer({ id: user!.id, email, name: 'Bella Rossi' });
  await database.db.update(users).set({ billingCustomerId: customerId }).where(eq(users.id, user!.id));
  await provider.attachPaymentMethod(customerId, fake.addCard(null));
  const { subscription } = await provider.changePlan(
    customerId,
    { plan: 'starter', billingPeriod: 'monthly' },
    `setup-${customerId}`,
  );
  return { userId: user!.id, customerId, subscriptionId: subscription.id };
}

const eventPayload = (
  type: string,
  object: Record<string, unknown>,
  id = `evt_${randomBytes(8).toString('hex')}`,
) =>
  JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: nowSeconds(),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
const sign = (payload: string, options: { timestamp?: number; secret?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? nowSeconds(),
  });
const deliver = (payload: string, signature: string | null, target = app) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/webhooks/stripe',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
const userRow = async (id: string) => (await database.db.select().from(users).where(eq(users.id, id)))[0]!;
const recorded = async (eventId: string) =>
  (await database.db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.id, eventId)))[0]!.n;

describe('POST /api/v1/webhooks/stripe', () => {
  it('accepts a validly signed event, re-reads the subscription and syncs the user', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload(
      'customer.subscription.updated',
      fake.subscriptionObject(owner.subscriptionId),
    );
    const response = await deliver(payload, sign(payload));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, duplicate: false });

    expect(syncs).toHaveLength(1);
    expect(syncs[0]).toMatchObject({
      customerId: owner.customerId,
      subscription: { id: owner.subscriptionId, plan: 'starter', billingPeriod: 'monthly', status: 'active' },
    });
    const periodEnd = fake.subscriptions.get(owner.subscriptionId)!.periodEnd;
    expect(await userRow(owner.userId)).toMatchObject({
      subscriptionPlan: 'starter',
      subscriptionPeriod: 'monthly',
      subscriptionStatus: 'active',
      currentPeriodEnd: new Date(periodEnd * 1000),
    });
    const [event] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, JSON.parse(payload).id));
    expect(event).toEqual({
      id: JSON.parse(payload).id,
      type: 'customer.subscription.updated',
      receivedAt: clock.now(),
    });
  });

  it('applies an event delivered twice once, and answers 200 both times', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload('invoice.paid', {
      id: 'in_1',
      object: 'invoice',
      customer: owner.customerId,
    });
    const first = await deliver(payload, sign(payload));
    const second = await deliver(payload, sign(payload));
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json()).toEqual({ received: true, duplicate: false });
    expect(second.json()).toEqual({ received: true, duplicate: true });
    expect(syncs).toHaveLength(1);
    expect(await recorded(JSON.parse(payload).id)).toBe(1);
  });

  it('applies concurrent deliveries of the same event once', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload(
      'customer.subscription.created',
      fake.subscriptionObject(owner.subscriptionId),
    );
    const responses = await Promise.all([1, 2, 3].map(() => deliver(payload, sign(payload))));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(responses.filter((response) => !response.json().duplicate)).toHaveLength(1);
    expect(syncs).toHaveLength(1);
    expect(await recorded(JSON.parse(payload).id)).toBe(1);
  });

  it('refuses a tampered body with 400 and applies nothing', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload(
      'customer.subscription.updated',
      fake.subscriptionObject(owner.subscriptionId),
    );
    const tampered = payload.replace('"livemode":false', '"livemode":true');
    const response = await deliver(tampered, sign(payload));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      message: expect.stringMatching(/^Webhook signature verification failed: No signatures found matching/),
    });
    expect(syncs).toHaveLength(0);
    expect(await recorded(JSON.parse(payload).id)).toBe(0);
  });

  it('refuses a stale signature (older than 300 s) with 400, and accepts one just inside the window', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload(
      'customer.subscription.updated',
      fake.subscriptionObject(owner.subscriptionId),
    );
    const stale = await deliver(payload, sign(payload, { timestamp: nowSeconds() - 301 }));
    expect(stale.statusCode).toBe(400);
    expect(stale.json().message).toBe(
      webhookMessages.invalidSignature('Timestamp outside the tolerance zone'),
    );
    expect(syncs).toHaveLength(0);

    const recent = await deliver(payload, sign(payload, { timestamp: nowSeconds() - 299 }));
    expect(recent.statusCode).toBe(200);
    expect(syncs).toHaveLength(1);
  });

  it('refuses a missing signature, and one made with another secret, with 400', async () => {
    const payload = eventPayload('invoice.paid', { id: 'in_2', object: 'invoice', customer: 'cus_x' });
    const missing = await deliver(payload, null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ success: false, message: webhookMessages.missingSignature });

    const forged = await deliver(payload, sign(payload, { secret: 'whsec_someone_else' }));
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toMatch(/^Webhook signature verification failed/);

    const garbage = await deliver(payload, 'not-a-signature');
    expect(garbage.statusCode).toBe(400);
    expect(syncs).toHaveLength(0);
  });

  it('syncs a failed payment (past_due), a scheduled downgrade and a deleted subscription from Stripe', async () => {
    const owner = await subscribedOwner();
    fake.subscriptions.get(owner.subscriptionId)!.status = 'past_due';
    const failed = eventPayload('invoice.payment_failed', {
      id: 'in_3',
      object: 'invoice',
      customer: owner.customerId,
    });
    expect((await deliver(failed, sign(failed))).statusCode).toBe(200);
    expect((await userRow(owner.userId)).subscriptionStatus).toBe('past_due');

    fake.subscriptions.get(owner.subscriptionId)!.status = 'active';
    await provider.changePlan(
      owner.customerId,
      { plan: 'growth', billingPeriod: 'monthly' },
      `up-${owner.customerId}`,
    );
    await provider.changePlan(
      owner.customerId,
      { plan: 'starter', billingPeriod: 'monthly' },
      `down-${owner.customerId}`,
    );
    const scheduleId = fake.subscriptions.get(owner.subscriptionId)!.schedule!;
    const scheduled = eventPayload('subscription_schedule.updated', {
      id: scheduleId,
      object: 'subscription_schedule',
      customer: owner.customerId,
    });
    expect((await deliver(scheduled, sign(scheduled))).statusCode).toBe(200);
    expect(syncs.at(-1)?.subscription).toMatchObject({
      plan: 'growth',
      pending_change: { plan: 'starter', billingPeriod: 'monthly' },
    });

    fake.subscriptions.get(owner.subscriptionId)!.status = 'canceled';
    const deleted = eventPayload('customer.subscription.deleted', {
      ...fake.subscriptionObject(owner.subscriptionId),
      status: 'canceled',
    });
    expect((await deliver(deleted, sign(deleted))).statusCode).toBe(200);
    expect(syncs.at(-1)).toEqual({ customerId: owner.customerId, subscription: null });
    expect(await userRow(owner.userId)).toMatchObject({
      subscriptionPlan: 'free_trial',
      subscriptionStatus: 'canceled',
    });
  });

  it('syncs after a completed Checkout Session', async () => {
    const owner = await subscribedOwner();
    const payload = eventPayload('checkout.session.completed', {
      id: 'cs_test_1',
      object: 'checkout.session',
      mode: 'subscription',
      customer: owner.customerId,
      subscription: owner.subscriptionId,
    });
    expect((await deliver(payload, sign(payload))).statusCode).toBe(200);
    expect(syncs).toEqual([
      { customerId: owner.customerId, subscription: expect.objectContaining({ plan: 'starter' }) },
    ]);
  });

  it('acknowledges an event for a customer no user owns (a deleted account) without asking Stripe or syncing', async () => {
    const requestsBefore = fake.requests.length;
    const payload = eventPayload('customer.subscription.deleted', {
      id: 'sub_gone',
      object: 'subscription',
      customer: 'cus_deleted_account',
    });
    const response = await deliver(payload, sign(payload));
    expect(response.statusCode).toBe(200);
    expect(syncs).toHaveLength(0);
    expect(fake.requests.length).toBe(requestsBefore);
  });

  it('acknowledges events it does not handle without recording or syncing them', async () => {
    const payload = eventPayload('customer.created', { id: 'cus_new', object: 'customer' });
    const response = await deliver(payload, sign(payload));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, duplicate: false });
    expect(syncs).toHaveLength(0);
    expect(await recorded(JSON.parse(payload).id)).toBe(0);
  });

  it('records the event in the same transaction as the sync: a failed sync is rolled back and retried', async () => {
    const owner = await subscribedOwner();
    await database.db.update(users).set({ subscriptionPlan: 'free_trial' }).where(eq(users.id, owner.userId));
    const payload = eventPayload(
      'customer.subscription.updated',
      fake.subscriptionObject(owner.subscriptionId),
    );

    failNextSync = true;
    const failed = await deliver(payload, sign(payload));
    expect(failed.statusCode).toBe(500);
    expect(await recorded(JSON.parse(payload).id)).toBe(0);
    expect((await userRow(owner.userId)).subscriptionPlan).toBe('free_trial');

    // Stripe retries the delivery: now it applies.
    const retried = await deliver(payload, sign(payload));
    expect(retried.statusCode).toBe(200);
    expect(retried.json().duplicate).toBe(false);
    expect(await recorded(JSON.parse(payload).id)).toBe(1);
    expect((await userRow(owner.userId)).subscriptionPlan).toBe('starter');
  });

  it('keeps the raw-body parser inside the plugin: other routes still parse JSON', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/v1/echo', payload: { hello: 'world' } });
    expect(response.json()).toEqual({ body: { hello: 'world' } });
  });

  it('answers 503 when STRIPE_WEBHOOK_SECRET is not set', async () => {
    const unconfigured = await buildWebhookApp(null);
    try {
      const payload = eventPayload('invoice.paid', { id: 'in_4', object: 'invoice', customer: 'cus_x' });
      const response = await deliver(payload, sign(payload), unconfigured);
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ success: false, message: webhookMessages.notConfigured });
    } finally {
      await unconfigured.close();
    }
  });
});
