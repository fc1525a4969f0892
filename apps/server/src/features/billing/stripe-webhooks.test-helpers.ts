import { randomBytes } from 'node:crypto';
import type { Subscription } from '@waitlist/contract';
import { count, eq } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { DatabaseHandle, Executor } from '../../db/client.ts';
import { users, webhookEvents } from '../../db/schema.ts';
import { createManualClock } from '../../lib/clock.ts';
import { registerErrorHandler } from '../../plugins/error-handler.ts';
import type { BillingProvider } from '../../providers/billing/index.ts';
import { createStripeBillingProvider } from '../../providers/billing/stripe.ts';
import { FAKE_PRICES, FAKE_SECRET_KEY, type FakeStripe, startFakeStripe } from '../../test/fake-stripe.ts';
import { createTestDatabase } from '../../test/test-app.ts';
import { stripeWebhookRoutes, type WebhookBillingService } from './stripe-webhooks.routes.ts';

/**
 * The webhook endpoint on a Fastify instance of its own, with a real database (PGlite or PostgreSQL) and
 * the Stripe provider talking to the fake Stripe API. Payloads are signed with the SDK's test helper.
 * The billing service is a stand-in that writes the user's subscription cache in the transaction it is
 * given, and counts its calls. Shared by the webhook tests (stripe-webhooks*.test.ts); each test file gets its
 * own copy of this module's state.
 */

export const SECRET = 'whsec_contract_test_secret';
export let fake: FakeStripe;
export let database: DatabaseHandle;
export let app: FastifyInstance;
export let provider: BillingProvider;
export const clock = createManualClock(new Date('2026-11-23T10:00:00Z'));
export const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);

export const syncs: { customerId: string; subscription: Subscription | null }[] = [];
let failNextSync = false;
/** The stand-in's next sync throws after writing, as a sync failing mid-transaction would. */
export function failTheNextSync() {
  failNextSync = true;
}
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

export async function buildWebhookApp(webhookSecret: string | null) {
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

/** Registers the suite's hooks: the fake Stripe, the database and the webhook app, and a clean sync log per test. */
export function useWebhookTestApp() {
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
}

/** An owner with a Stripe customer, a card and a Starter subscription in the fake Stripe account. */
export async function subscribedOwner() {
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

export const eventPayload = (
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
export const sign = (payload: string, options: { timestamp?: number; secret?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? SECRET,
    timestamp: options.timestamp ?? nowSeconds(),
  });
export const deliver = (payload: string, signature: string | null, target = app) =>
  target.inject({
    method: 'POST',
    url: '/api/v1/webhooks/stripe',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
export const userRow = async (id: string) =>
  (await database.db.select().from(users).where(eq(users.id, id)))[0]!;
export const recorded = async (eventId: string) =>
  (await database.db.select({ n: count() }).from(webhookEvents).where(eq(webhookEvents.id, eventId)))[0]!.n;
