import { billingMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, createTestApp, latestEmailTo, onboardedUser, type TestApp } from '../../test/test-app.ts';
import {
  addCard,
  billingCall,
  changePlan,
  invoicesOf,
  seconds,
  subscriptionOf,
  TEST_CARDS,
  userRow,
} from './billing.test-helpers.ts';
import { billingStanding } from './billing-standing.ts';

const START = '2026-11-23T10:00:00.000Z';
type Owner = Awaited<ReturnType<typeof onboardedUser>>;

let t: TestApp;
let renewing: Owner;
let failing: Owner;
let downgrading: Owner;
let cancelling: Owner;
let trial: Owner;
let yearly: Owner;

const advance = (days: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/v1/dev/billing/advance', payload: { days } });
const me = async (token: string) =>
  (await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) })).json().data;
const standingOf = async (owner: Owner) => billingStanding(await userRow(t, owner.id), t.clock.now());

beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  [renewing, failing, downgrading, cancelling, trial, yearly] = await Promise.all([
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
  ]);
  // Everyone but the trial owner subscribes at START: periods end on 2026-12-23T10:00Z.
  for (const owner of [renewing, failing, downgrading, cancelling, yearly]) await addCard(t, owner.token);
  for (const owner of [renewing, failing, cancelling]) await changePlan(t, owner.token, 'STARTER');
  await changePlan(t, downgrading.token, 'GROWTH');
  await changePlan(t, downgrading.token, 'STARTER');
  await billingCall(t, cancelling.token, 'POST', '/stripe/cancel-subscription');
  await changePlan(t, yearly.token, 'GROWTH', 'yearly');
  await changePlan(t, yearly.token, 'GROWTH', 'monthly');
  const badCard = await addCard(t, failing.token, TEST_CARDS.chargesFail);
  await billingCall(t, failing.token, 'POST', '/stripe/payment-methods/default', {
    paymentMethodId: badCard,
  });
});
afterAll(() => t.close());

describe('the local billing clock (POST /dev/billing/advance)', () => {
  it('validates the number of days', async () => {
    for (const days of [0, -1, 'x', 801]) expect((await advance(days)).statusCode).toBe(400);
  });

  it('ends the trial after 7 days: billingStanding says so, and the owner is emailed', async () => {
    expect(await standingOf(trial)).toBe('ok');
    const response = await advance(8);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      now: '2026-12-01T10:00:00.000Z',
      offsetDays: 8,
      periodEnds: 0,
      trialsExpired: 1,
    });
    expect((await t.app.inject({ url: '/api/v1/dev/billing/clock' })).json()).toEqual({
      success: true,
      now: '2026-12-01T10:00:00.000Z',
      offsetDays: 8,
    });
    expect(await me(trial.token)).toMatchObject({
      subscriptionPlan: 'free_trial',
      subscriptionStatus: 'trial_expired',
    });
    // The real clock has not moved: the standing comes from the status the worker set.
    expect(await standingOf(trial)).toBe('trial_expired');
    expect((await latestEmailTo(t, trial.email))?.subject).toBe('Your free trial has ended');
    for (const owner of [renewing, failing, downgrading, cancelling, yearly]) {
      expect(await standingOf(owner)).toBe('ok');
    }
  });

  it('a trial that ended can still become a paid plan', async () => {
    await addCard(t, trial.token);
    const response = await changePlan(t, trial.token, 'STARTER');
    expect(response.json()).toMatchObject({
      effective: 'now',
      invoice: { amount_paid: 2900 },
      subscription: { current_period_start: seconds('2026-12-01T10:00:00Z') },
    });
    expect(await standingOf(trial)).toBe('ok');
  });
});

describe('period ends', () => {
  it('renews, applies the pending downgrade, fails the 0341 card and ends the cancelled subscription', async () => {
    const response = await advance(22); // 2026-12-23T10:00Z: every period started on Nov 23 ends now
    expect(response.json()).toMatchObject({
      now: '2026-12-23T10:00:00.000Z',
      periodEnds: 4,
      trialsExpired: 0,
    });

    // Renewal with the default card: a new paid invoice and the next period.
    const renewed = await invoicesOf(t, renewing.token);
    expect(renewed).toHaveLength(2);
    expect(renewed[0]).toMatchObject({
      amount_paid: 2900,
      status: 'paid',
      created: seconds('2026-12-23T10:00:00Z'),
      description: 'Starter Plan (monthly), Dec 23, 2026 – Jan 23, 2027',
    });
    expect(renewed[0]!.number).toMatch(/-0002$/);
    expect(await subscriptionOf(t, renewing.token)).toMatchObject({
      status: 'active',
      current_period_start: seconds('2026-12-23T10:00:00Z'),
      current_period_end: seconds('2027-01-23T10:00:00Z'),
    });
    expect((await me(renewing.token)).currentPeriodEnd).toBe('2027-01-23T10:00:00.000Z');

    // The scheduled Growth → Starter change, applied and charged at the Starter price.
    expect(await subscriptionOf(t, downgrading.token)).toMatchObject({
      plan: 'starter',
      billingPeriod: 'monthly',
      pending_change: null,
    });
    expect((await invoicesOf(t, downgrading.token))[0]).toMatchObject({ amount_paid: 2900 });
    expect((await me(downgrading.token)).subscriptionPlan).toBe('starter');

    // Cancelled at period end: back to the limited state, and told so.
    expect(await subscriptionOf(t, cancelling.token)).toBeNull();
    expect(await me(cancelling.token)).toMatchObject({
      subscriptionPlan: 'free_trial',
      subscriptionPeriod: null,
      subscriptionStatus: 'canceled',
      currentPeriodEnd: null,
    });
    expect(await standingOf(cancelling)).toBe('canceled');
    expect(await invoicesOf(t, cancelling.token)).toHaveLength(1);
    expect((await latestEmailTo(t, cancelling.email))?.subject).toBe('Your subscription has ended');
  });

  it('card 0341: the renewal leaves an open invoice, past_due and an email; a good default card settles it', async () => {
    expect(await subscriptionOf(t, failing.token)).toMatchObject({ status: 'past_due' });
    expect((await me(failing.token)).subscriptionStatus).toBe('past_due');
    expect(await standingOf(failing)).toBe('past_due');
    const [open] = await invoicesOf(t, failing.token);
    expect(open).toMatchObject({ status: 'open', amount_paid: 0, amount_due: 2900 });
    const email = await latestEmailTo(t, failing.email);
    expect(email?.subject).toBe('Your payment failed');
    expect(email?.text).toContain('http://app.test/account?tab=billing');

    const cancel = await billingCall(t, failing.token, 'POST', '/stripe/cancel-subscription');
    expect(cancel.statusCode).toBe(409);
    expect(cancel.json().message).toBe(billingMessages.notActive);

    const good = await addCard(t, failing.token, TEST_CARDS.visa);
    await billingCall(t, failing.token, 'POST', '/stripe/payment-methods/default', { paymentMethodId: good });
    expect((await invoicesOf(t, failing.token))[0]).toMatchObject({
      id: open!.id,
      status: 'paid',
      amount_paid: 2900,
    });
    expect(await subscriptionOf(t, failing.token)).toMatchObject({ status: 'active' });
    expect(await standingOf(failing)).toBe('ok');
  });

  it('a second pass applies nothing more (idempotent)', async () => {
    const before = await invoicesOf(t, renewing.token);
    const pass = await t.app.billingWorker.runOnce();
    expect(pass.outcomes).toEqual([]);
    expect(await invoicesOf(t, renewing.token)).toEqual(before);
  });

  it('a cancelled owner can subscribe again at the full price', async () => {
    const response = await changePlan(t, cancelling.token, 'GROWTH');
    expect(response.json()).toMatchObject({ effective: 'now', invoice: { amount_paid: 7900 } });
    expect(await standingOf(cancelling)).toBe('ok');
  });

  it('yearly → monthly applies at the end of the year; monthly plans renewed every month meanwhile', async () => {
    const response = await advance(335); // 2027-11-23T10:00Z
    expect(response.json().now).toBe('2027-11-23T10:00:00.000Z');
    expect(await subscriptionOf(t, yearly.token)).toMatchObject({
      plan: 'growth',
      billingPeriod: 'monthly',
      current_period_start: seconds('2027-11-23T10:00:00Z'),
      current_period_end: seconds('2027-12-23T10:00:00Z'),
      pending_change: null,
    });
    const invoices = await invoicesOf(t, yearly.token);
    expect(invoices.map((invoice) => invoice.amount_paid)).toEqual([7900, 75840]);
    // Monthly renewals kept the anchor day: 13 invoices for Nov 23, 2026 … Nov 23, 2027.
    const monthly = await invoicesOf(t, renewing.token);
    expect(monthly).toHaveLength(13);
    expect(new Set(monthly.map((invoice) => new Date(invoice.created * 1000).getUTCDate()))).toEqual(
      new Set([23]),
    );
    expect(new Set(monthly.map((invoice) => invoice.number)).size).toBe(13);
  });
});

describe('POST /dev/billing/reset', () => {
  it('puts the billing clock back on the real time, so owners who sign up afterwards keep their trial', async () => {
    expect((await t.app.inject({ url: '/api/v1/dev/billing/clock' })).json().offsetDays).toBeGreaterThan(300);
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/dev/billing/reset' });
    expect(response.json()).toEqual({ success: true, now: START, offsetDays: 0 });
    const newcomer = await onboardedUser(t);
    // The worker's next pass (what /dev/billing/advance runs) must not end the newcomer's trial.
    await advance(1);
    expect(await standingOf(newcomer)).toBe('ok');
    expect(await me(newcomer.token)).toMatchObject({ subscriptionStatus: 'trialing' });
  });
});
