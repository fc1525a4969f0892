import { describe, expect, it } from 'vitest';
import { FAKE_PRICES } from '../../test/fake-stripe.ts';
import { customerWithCard, DAY, fake, only, stripe, useFakeStripe } from './stripe.test-helpers.ts';

/** Contract tests of the Stripe provider's plan-change preview (issue 27): Stripe's own proration, nothing changed. */

useFakeStripe();

describe('previewPlanChange', () => {
  it('no subscription yet: the full price of the plan, and no call that creates anything', async () => {
    const { customerId } = await customerWithCard();
    const preview = await stripe.previewPlanChange(customerId, { plan: 'growth', billingPeriod: 'monthly' });
    expect(preview).toEqual({ effective: 'now', amountDue: 7900, currency: 'usd', effectiveAt: null });
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('an upgrade: the amount of invoices.createPreview for the update changePlan sends, then charged the same', async () => {
    const { customerId } = await customerWithCard();
    const start = await stripe.changePlan(customerId, { plan: 'starter', billingPeriod: 'monthly' }, 'k-p-1');
    const subscriptionId = start.subscription.id;
    const itemId = fake.subscriptions.get(subscriptionId)!.itemId;
    fake.now += 10 * DAY;
    fake.clear();
    try {
      const preview = await stripe.previewPlanChange(customerId, {
        plan: 'growth',
        billingPeriod: 'monthly',
      });
      const request = only('POST', '/v1/invoices/create_preview');
      expect(request.body).toEqual({
        customer: customerId,
        subscription: subscriptionId,
        subscription_details: {
          items: [{ id: itemId, price: FAKE_PRICES.GROWTH.monthly, quantity: '1' }],
          proration_behavior: 'always_invoice',
        },
      });
      // 20 of 30 days left: round((7900 − 2900) × 20 / 30), as the fake prorates it.
      expect(preview).toEqual({ effective: 'now', amountDue: 3333, currency: 'usd', effectiveAt: null });
      expect(fake.find('POST', `/v1/subscriptions/${subscriptionId}`)).toEqual([]);
      expect(fake.subscriptions.get(subscriptionId)!.price).toBe(FAKE_PRICES.STARTER.monthly);

      const changed = await stripe.changePlan(
        customerId,
        { plan: 'growth', billingPeriod: 'monthly' },
        'k-p-2',
      );
      expect(changed.invoice).toMatchObject({ amount_paid: preview.amountDue });
    } finally {
      fake.now -= 10 * DAY;
    }
  });

  it('a downgrade: nothing today, at the period end; the current plan: no change', async () => {
    const { customerId } = await customerWithCard();
    const start = await stripe.changePlan(customerId, { plan: 'growth', billingPeriod: 'monthly' }, 'k-p-3');
    fake.clear();
    expect(await stripe.previewPlanChange(customerId, { plan: 'starter', billingPeriod: 'monthly' })).toEqual(
      {
        effective: 'period_end',
        amountDue: 0,
        currency: 'usd',
        effectiveAt: start.subscription.current_period_end,
      },
    );
    expect(await stripe.previewPlanChange(customerId, { plan: 'growth', billingPeriod: 'monthly' })).toEqual({
      effective: 'none',
      amountDue: 0,
      currency: 'usd',
      effectiveAt: null,
    });
    expect(fake.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });
});
