import { describe, expect, it } from 'vitest';
import { DECLINED_MESSAGE, FAKE_PRICES } from '../../test/fake-stripe.ts';
import { customerWithCard, DAY, fake, only, stripe, useFakeStripe } from './stripe.test-helpers.ts';

/** Contract tests of the Stripe provider: upgrades charged now, downgrades scheduled for the period end. */

useFakeStripe();

describe('plan changes', () => {
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
});
