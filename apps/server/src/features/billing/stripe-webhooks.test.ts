import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookEvents } from '../../db/schema.ts';
import { webhookMessages } from './stripe-webhooks.routes.ts';
import {
  app,
  buildWebhookApp,
  clock,
  database,
  deliver,
  eventPayload,
  fake,
  nowSeconds,
  recorded,
  sign,
  subscribedOwner,
  syncs,
  userRow,
  useWebhookTestApp,
} from './stripe-webhooks.test-helpers.ts';

/** The webhook endpoint: signatures, each event applied once, and the endpoint's own parser. */

useWebhookTestApp();

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
