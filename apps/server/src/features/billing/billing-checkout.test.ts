import { billingMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import {
  billingCall,
  invoicesOf,
  pathOf,
  subscriptionOf,
  TEST_CARDS,
  userRow,
} from './billing.test-helpers.ts';

/** The local provider's hosted checkout page, and the plan validation of every plan call. */

const START = '2026-11-23T10:00:00.000Z';

let t: TestApp;
let checkout: Awaited<ReturnType<typeof onboardedUser>>;
beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  checkout = await onboardedUser(t);
});
afterAll(() => t.close());

describe('hosted checkout', () => {
  it('creates a session whose page takes a test card and returns to /subscription/success', async () => {
    const created = await billingCall(t, checkout.token, 'POST', '/stripe/create-checkout-session', {
      planType: 'GROWTH',
      billingPeriod: 'yearly',
    });
    expect(created.statusCode).toBe(200);
    const { id, url } = created.json().data;
    expect(url).toBe(`http://app.test/billing/local/checkout/${id}`);
    expect(id).toMatch(/^cs_[\w-]{32}$/);

    const page = await t.app.inject({ url: pathOf(url) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Growth Plan (yearly)');
    expect(page.body).toContain('$758.40');
    expect(page.body).toContain('Test mode');
    expect(page.body).toContain('href="http://app.test/subscription/cancel"');
    expect(page.headers['content-security-policy']).toContain("form-action 'self' http://app.test");
    expect(page.headers['content-security-policy']).not.toContain('script-src');

    const pay = (number: string) =>
      t.app.inject({
        method: 'POST',
        url: pathOf(url),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ number, exp: '12/30', cvc: '123' }).toString(),
      });
    const declined = await pay(TEST_CARDS.declined);
    expect(declined.statusCode).toBe(400);
    expect(declined.body).toContain(billingMessages.cardDeclined);
    expect(declined.body).not.toContain('value="4000'); // the number is not sent back
    expect(await subscriptionOf(t, checkout.token)).toBeNull();

    const paid = await pay(TEST_CARDS.visa);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(`http://app.test/subscription/success?session_id=${id}`);
    expect(await subscriptionOf(t, checkout.token)).toMatchObject({
      plan: 'growth',
      billingPeriod: 'yearly',
      status: 'active',
    });
    expect((await userRow(t, checkout.id)).subscriptionPlan).toBe('growth');
    expect((await invoicesOf(t, checkout.token)).map((invoice) => invoice.amount_paid)).toEqual([75840]);

    // Sent twice (a reload): back to the success page, no second charge.
    const again = await pay(TEST_CARDS.visa);
    expect(again.statusCode).toBe(303);
    expect(await invoicesOf(t, checkout.token)).toHaveLength(1);
    expect((await t.app.inject({ url: pathOf(url) })).body).toContain('Payment received');

    const second = await billingCall(t, checkout.token, 'POST', '/stripe/create-checkout-session', {
      planType: 'STARTER',
      billingPeriod: 'monthly',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(billingMessages.alreadySubscribed);
  });

  it('validates the plan and period', async () => {
    const response = await billingCall(t, checkout.token, 'POST', '/stripe/create-checkout-session', {
      planType: 'ENTERPRISE',
      billingPeriod: 'monthly',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(billingMessages.invalidPlan);
  });

  it('SPEC §8: a request without a plan says "No plan selected", on every plan call', async () => {
    for (const path of [
      '/stripe/create-checkout-session',
      '/stripe/update-subscription',
      '/stripe/update-subscription-with-existing-payment',
    ]) {
      const response = await billingCall(t, checkout.token, 'POST', path, { billingPeriod: 'monthly' });
      expect(response.statusCode, path).toBe(400);
      expect(response.json().message, path).toBe(billingMessages.noPlanSelected);
      expect(response.json().message).toBe('No plan selected. Please select a plan to continue.');
    }
  });
});
