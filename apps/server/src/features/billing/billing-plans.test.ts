import { billingMessages } from '@waitlist/contract';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBillingPaymentMethods, localBillingSubscriptions } from '../../db/schema.ts';
import { auth, createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import {
  addCard,
  billingCall,
  changePlan,
  confirmCard,
  createSetupIntent,
  invoicesOf,
  pathOf,
  seconds,
  subscriptionOf,
  TEST_CARDS,
  userRow,
} from './billing.test-helpers.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const START = '2026-11-23T10:00:00.000Z';

type Owner = Awaited<ReturnType<typeof onboardedUser>>;
let t: TestApp;
// One owner per story; argon2 makes each sign-up slow, so they are created once, together.
let worked: Owner;
let doubled: Owner;
let noCard: Owner;
let yearly: Owner;
let refused: Owner;
let checkout: Owner;
beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  [worked, doubled, noCard, yearly, refused, checkout] = await Promise.all([
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
    onboardedUser(t),
  ]);
});
afterAll(() => t.close());

const me = async (token: string) =>
  (await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) })).json().data;

describe('trial → Starter → Growth, with the proration worked to the cent', () => {
  it('charges the full Starter price now, with a numbered invoice, and syncs the user', async () => {
    await addCard(t, worked.token);
    const response = await changePlan(t, worked.token, 'STARTER', 'monthly');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      effective: 'now',
      message:
        'Your plan has been changed to Starter Plan (monthly). A charge of $29.00 was made to your default card.',
      subscription: {
        status: 'active',
        plan: 'starter',
        billingPeriod: 'monthly',
        cancel_at_period_end: false,
        current_period_start: seconds(START),
        current_period_end: seconds('2026-12-23T10:00:00Z'),
        created: seconds(START),
        pending_change: null,
      },
      invoice: { amount_paid: 2900, amount_due: 2900, currency: 'usd', status: 'paid' },
    });
    expect(body.invoice.number).toMatch(/^[0-9A-F]{8}-0001$/);
    expect(body.invoice.description).toBe('Starter Plan (monthly), Nov 23, 2026 – Dec 23, 2026');
    expect(await me(worked.token)).toMatchObject({
      subscriptionPlan: 'starter',
      subscriptionPeriod: 'monthly',
      subscriptionStatus: 'active',
      currentPeriodEnd: '2026-12-23T10:00:00.000Z',
    });
    expect(await invoicesOf(t, worked.token)).toEqual([body.invoice]);
  });

  it('serves the hosted invoice page and a real PDF at the invoice links', async () => {
    const [invoice] = await invoicesOf(t, worked.token);
    expect(invoice!.hosted_invoice_url).toMatch(
      /^http:\/\/app\.test\/billing\/local\/invoices\/in_[\w-]{32}$/,
    );
    expect(invoice!.invoice_pdf).toBe(`${invoice!.hosted_invoice_url}/pdf`);
    const hosted = await t.app.inject({ url: pathOf(invoice!.hosted_invoice_url) });
    expect(hosted.statusCode).toBe(200);
    expect(hosted.body).toContain(invoice!.number);
    expect(hosted.body).toContain('$29.00');
    const pdf = await t.app.inject({ url: pathOf(invoice!.invoice_pdf) });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.length).toBeGreaterThan(1000);
    expect((await t.app.inject({ url: '/billing/local/invoices/in_unknown_invoice/pdf' })).statusCode).toBe(
      404,
    );
  });

  it('selecting the current plan changes nothing and charges nothing', async () => {
    const response = await changePlan(t, worked.token, 'STARTER', 'monthly');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      effective: 'none',
      invoice: null,
      message: billingMessages.planUnchanged,
      subscription: { plan: 'starter' },
    });
    expect(await invoicesOf(t, worked.token)).toHaveLength(1);
  });

  it('Starter → Growth 10 days in: (7900 − 2900) × 20/30 days = $33.33 now, same period', async () => {
    t.clock.advance(10 * DAY_MS); // 2026-12-03T10:00Z: 20 of the period's 30 days remain
    const response = await changePlan(t, worked.token, 'GROWTH', 'monthly');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      effective: 'now',
      message:
        'Your plan has been changed to Growth Plan (monthly). A prorated charge of $33.33 was made to your default card.',
      subscription: {
        plan: 'growth',
        billingPeriod: 'monthly',
        status: 'active',
        current_period_start: seconds(START),
        current_period_end: seconds('2026-12-23T10:00:00Z'),
      },
      invoice: { amount_paid: 3333, status: 'paid' },
    });
    // round((7900 − 2900) × 1 728 000 s / 2 592 000 s) = round(3333.33) = 3333
    expect(Math.round(((7900 - 2900) * 1_728_000) / 2_592_000)).toBe(3333);
    expect(body.invoice.number).toMatch(/-0002$/);
    expect(body.invoice.description).toBe(
      'Starter Plan (monthly) → Growth Plan (monthly), prorated for the rest of the period to Dec 23, 2026',
    );
    expect((await me(worked.token)).subscriptionPlan).toBe('growth');
  });

  it('Growth → Starter waits for the period end (pending), and choosing Growth again drops it', async () => {
    const response = await changePlan(t, worked.token, 'STARTER', 'monthly');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      effective: 'period_end',
      invoice: null,
      message: 'Your plan will change to Starter Plan (monthly) on Dec 23, 2026.',
      subscription: {
        plan: 'growth',
        pending_change: {
          plan: 'starter',
          billingPeriod: 'monthly',
          effective_at: seconds('2026-12-23T10:00:00Z'),
        },
      },
    });
    expect((await me(worked.token)).subscriptionPlan).toBe('growth');
    expect(await invoicesOf(t, worked.token)).toHaveLength(2);

    const back = await changePlan(t, worked.token, 'GROWTH', 'monthly');
    expect(back.json()).toMatchObject({
      effective: 'none',
      message: billingMessages.planUnchanged,
      subscription: { plan: 'growth', pending_change: null },
    });
    expect(await invoicesOf(t, worked.token)).toHaveLength(2);
  });
});

describe('cancel and resume', () => {
  it('cancels only an active subscription that is not already cancelling, and resumes it', async () => {
    const cancel = await billingCall(t, worked.token, 'POST', '/stripe/cancel-subscription');
    expect(cancel.statusCode).toBe(200);
    expect(cancel.json()).toMatchObject({
      success: true,
      message: billingMessages.subscriptionCancelled,
      subscription: { status: 'active', cancel_at_period_end: true },
    });
    expect((await me(worked.token)).subscriptionStatus).toBe('active');

    const twice = await billingCall(t, worked.token, 'POST', '/stripe/cancel-subscription');
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ success: false, message: billingMessages.alreadyCancelling });

    const resume = await billingCall(t, worked.token, 'POST', '/stripe/resume-subscription');
    expect(resume.statusCode).toBe(200);
    expect(resume.json()).toMatchObject({
      message: billingMessages.subscriptionResumed,
      subscription: { cancel_at_period_end: false },
    });
    const again = await billingCall(t, worked.token, 'POST', '/stripe/resume-subscription');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(billingMessages.notCancelling);
  });

  it('refuses cancel and resume without a paid subscription', async () => {
    for (const path of ['/stripe/cancel-subscription', '/stripe/resume-subscription']) {
      const response = await billingCall(t, noCard.token, 'POST', path);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(billingMessages.noSubscription);
    }
  });
});

describe('payment method required', () => {
  it('answers 400 noPaymentMethod without a card, then pays with the card named in update-subscription', async () => {
    const refusedChange = await changePlan(t, noCard.token, 'STARTER', 'monthly');
    expect(refusedChange.statusCode).toBe(400);
    expect(refusedChange.json()).toEqual({ success: false, message: billingMessages.noPaymentMethod });
    expect(await invoicesOf(t, noCard.token)).toEqual([]);

    const confirmed = await confirmCard(t, noCard.token, await createSetupIntent(t, noCard.token));
    const response = await billingCall(t, noCard.token, 'POST', '/stripe/update-subscription', {
      planType: 'GROWTH',
      billingPeriod: 'monthly',
      paymentMethodId: confirmed.json().paymentMethodId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ effective: 'now', invoice: { amount_paid: 7900 } });
  });

  it('refuses an upgrade when the default card cannot be charged (0341), changing nothing', async () => {
    await addCard(t, refused.token);
    expect((await changePlan(t, refused.token, 'STARTER')).statusCode).toBe(200);
    const failing = await addCard(t, refused.token, TEST_CARDS.chargesFail);
    await billingCall(t, refused.token, 'POST', '/stripe/payment-methods/default', {
      paymentMethodId: failing,
    });
    const response = await changePlan(t, refused.token, 'GROWTH');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: billingMessages.cardDeclined });
    expect(await subscriptionOf(t, refused.token)).toMatchObject({ plan: 'starter', status: 'active' });
    expect(await invoicesOf(t, refused.token)).toHaveLength(1);
  });
});

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

describe('account deletion', () => {
  it('ends the subscription at once, so the renewal worker charges nothing afterwards', async () => {
    const customerId = (await userRow(t, refused.id)).billingCustomerId!;
    const response = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/auth/account',
      headers: auth(refused.token),
    });
    expect(response.statusCode).toBe(200);
    const subscriptions = await t.database.db
      .select()
      .from(localBillingSubscriptions)
      .where(eq(localBillingSubscriptions.customerId, customerId));
    expect(subscriptions.map((row) => row.status)).toEqual(['canceled']);
    const cards = await t.database.db
      .select()
      .from(localBillingPaymentMethods)
      .where(
        and(
          eq(localBillingPaymentMethods.customerId, customerId),
          isNull(localBillingPaymentMethods.detachedAt),
        ),
      );
    expect(cards).toEqual([]);
  });
});
