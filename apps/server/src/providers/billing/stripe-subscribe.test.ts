import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { DECLINED_MESSAGE, FAKE_PRICES, INSUFFICIENT_FUNDS_MESSAGE } from '../../test/fake-stripe.ts';
import { PaymentError } from './payment-error.ts';
import {
  customerWithCard,
  DAY,
  fake,
  newCustomer,
  only,
  providerWith,
  stripe,
  subscriptionOf,
  useFakeStripe,
} from './stripe.test-helpers.ts';

/**
 * Contract tests of the Stripe provider: subscribing from the trial, its idempotency keys and card refusals.
 */

useFakeStripe();

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

  it('has no subscription before subscribing; cancel and resume then fail as not found', async () => {
    const customerId = await newCustomer();
    expect(await stripe.getSubscription(customerId)).toBeNull();
    await expect(stripe.cancelAtPeriodEnd(customerId)).rejects.toMatchObject({ code: 'not_found' });
    await expect(stripe.resume(customerId)).rejects.toMatchObject({ code: 'not_found' });
  });
});
