import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { addCard, changePlan, invoicesOf, seconds, subscriptionOf } from './billing.test-helpers.ts';

/** Issue 27: the Confirm Plan Change dialog shows what is charged today before the owner confirms (local billing). */

const DAY_MS = 24 * 60 * 60 * 1000;
const START = '2026-11-23T10:00:00.000Z';

type Owner = Awaited<ReturnType<typeof onboardedUser>>;
let t: TestApp;
let owner: Owner;
beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  owner = await onboardedUser(t);
});
afterAll(() => t.close());

const preview = (planType: string, billingPeriod: string, token = owner.token) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/stripe/plan-change-preview?planType=${planType}&billingPeriod=${billingPeriod}`,
    headers: auth(token),
  });

describe('GET /stripe/plan-change-preview', () => {
  it('on the free trial: the full price today, without creating anything', async () => {
    const response = await preview('STARTER', 'monthly');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { effective: 'now', amountDue: 2900, currency: 'usd', effectiveAt: null },
    });
    expect((await preview('GROWTH', 'yearly')).json().data).toMatchObject({ amountDue: 75840 });
    expect(await subscriptionOf(t, owner.token)).toBeNull();
  });

  it('Starter → Growth 10 days in: the $33.33 the change then charges, and nothing charged by the preview', async () => {
    await addCard(t, owner.token);
    expect((await changePlan(t, owner.token, 'STARTER')).statusCode).toBe(200);
    t.clock.advance(10 * DAY_MS); // 20 of the period's 30 days remain
    const answer = (await preview('GROWTH', 'monthly')).json();
    expect(answer.data).toEqual({ effective: 'now', amountDue: 3333, currency: 'usd', effectiveAt: null });
    expect(await invoicesOf(t, owner.token)).toHaveLength(1);
    expect(await subscriptionOf(t, owner.token)).toMatchObject({ plan: 'starter', pending_change: null });

    const changed = await changePlan(t, owner.token, 'GROWTH');
    expect(changed.json().invoice).toMatchObject({ amount_paid: answer.data.amountDue });
  });

  it('a cheaper plan: nothing today, from the end of the period; the current plan: no change', async () => {
    expect((await preview('STARTER', 'monthly')).json().data).toEqual({
      effective: 'period_end',
      amountDue: 0,
      currency: 'usd',
      effectiveAt: seconds('2026-12-23T10:00:00Z'),
    });
    expect((await preview('GROWTH', 'monthly')).json().data).toEqual({
      effective: 'none',
      amountDue: 0,
      currency: 'usd',
      effectiveAt: null,
    });
    expect(await subscriptionOf(t, owner.token)).toMatchObject({ plan: 'growth', pending_change: null });
  });

  it('refuses a plan that does not exist, with the SPEC message', async () => {
    const response = await preview('PLATINUM', 'monthly');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Invalid plan selected.');
  });
});
