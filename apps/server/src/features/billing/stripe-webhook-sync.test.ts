import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import {
  database,
  deliver,
  eventPayload,
  failTheNextSync,
  fake,
  provider,
  recorded,
  sign,
  subscribedOwner,
  syncs,
  userRow,
  useWebhookTestApp,
} from './stripe-webhooks.test-helpers.ts';

/** What the webhooks sync from Stripe: failed payments, downgrades, deletions, checkouts; a failed sync retried. */

useWebhookTestApp();

describe('POST /api/v1/webhooks/stripe', () => {
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

    failTheNextSync();
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
});
