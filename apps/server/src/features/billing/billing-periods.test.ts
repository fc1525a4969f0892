import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { addCard, changePlan, invoicesOf, subscriptionOf } from './billing.test-helpers.ts';

/** Local billing: monthly ↔ yearly switches, and identical plan changes at once charged once. */

const DAY_MS = 24 * 60 * 60 * 1000;
const START = '2026-11-23T10:00:00.000Z';

type Owner = Awaited<ReturnType<typeof onboardedUser>>;
let t: TestApp;
// One owner per story; argon2 makes each sign-up slow, so they are created once, together.
let doubled: Owner;
let yearly: Owner;
beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  [doubled, yearly] = await Promise.all([onboardedUser(t), onboardedUser(t)]);
});
afterAll(() => t.close());

describe('double submits', () => {
  it('two identical plan changes at once charge once', async () => {
    await addCard(t, doubled.token);
    const [first, second] = await Promise.all([
      changePlan(t, doubled.token, 'STARTER'),
      changePlan(t, doubled.token, 'STARTER'),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    let invoices = await invoicesOf(t, doubled.token);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]!.amount_paid).toBe(2900);

    t.clock.advance(DAY_MS);
    const upgrades = await Promise.all([
      changePlan(t, doubled.token, 'GROWTH'),
      changePlan(t, doubled.token, 'GROWTH'),
      changePlan(t, doubled.token, 'GROWTH'),
    ]);
    expect(upgrades.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    invoices = await invoicesOf(t, doubled.token);
    expect(invoices).toHaveLength(2);
    const charged = upgrades.map((response) => response.json().invoice?.id).filter(Boolean);
    expect(new Set(charged)).toEqual(new Set([invoices[0]!.id]));
  });
});

describe('monthly ↔ yearly', () => {
  it('monthly → yearly starts a new year now and credits the unused month', async () => {
    await addCard(t, yearly.token);
    const monthly = (await changePlan(t, yearly.token, 'GROWTH', 'monthly')).json().subscription;
    t.clock.advance(5 * DAY_MS);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const response = await changePlan(t, yearly.token, 'GROWTH', 'yearly');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const period = monthly.current_period_end - monthly.current_period_start;
    const remaining = monthly.current_period_end - now;
    const credit = Math.round((7900 * remaining) / period);
    expect(body).toMatchObject({
      effective: 'now',
      subscription: {
        plan: 'growth',
        billingPeriod: 'yearly',
        current_period_start: now,
        current_period_end: Math.floor(
          Date.UTC(
            t.clock.now().getUTCFullYear() + 1,
            t.clock.now().getUTCMonth(),
            t.clock.now().getUTCDate(),
            10,
          ) / 1000,
        ),
      },
      invoice: { amount_paid: 75840 - credit },
    });
    expect(body.invoice.description).toContain(
      `less $${(credit / 100).toFixed(2)} unused time on Growth Plan (monthly)`,
    );
  });

  it('yearly → monthly waits for the end of the year', async () => {
    const before = await subscriptionOf(t, yearly.token);
    const response = await changePlan(t, yearly.token, 'GROWTH', 'monthly');
    expect(response.json()).toMatchObject({
      effective: 'period_end',
      invoice: null,
      subscription: {
        billingPeriod: 'yearly',
        pending_change: { plan: 'growth', billingPeriod: 'monthly', effective_at: before.current_period_end },
      },
    });
  });

  it('Starter yearly → Growth monthly is cheaper per invoice, so it waits too', async () => {
    const response = await changePlan(t, doubled.token, 'STARTER', 'yearly');
    // Growth monthly (7900) → Starter yearly (27840): more expensive, so now.
    expect(response.json()).toMatchObject({ effective: 'now', subscription: { billingPeriod: 'yearly' } });
    const back = await changePlan(t, doubled.token, 'GROWTH', 'monthly');
    expect(back.json()).toMatchObject({
      effective: 'period_end',
      subscription: { plan: 'starter', pending_change: { plan: 'growth', billingPeriod: 'monthly' } },
    });
  });
});
