import { describe, expect, it } from 'vitest';
import { FAKE_PRICES } from '../../test/fake-stripe.ts';
import { customerWithCard, fake, only, stripe, useFakeStripe } from './stripe.test-helpers.ts';

/**
 * Contract tests of the Stripe provider: cancelling at the period end and resuming, with plan changes
 * meanwhile.
 */

useFakeStripe();

describe('plan changes', () => {
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
});
