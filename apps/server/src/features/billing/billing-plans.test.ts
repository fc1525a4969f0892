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

/** Local billing plans: upgrade now, downgrade at the period end, cancel and resume, a card required. */

const DAY_MS = 24 * 60 * 60 * 1000;
const START = '2026-11-23T10:00:00.000Z';

type Owner = Awaited<ReturnType<typeof onboardedUser>>;
let t: TestApp;
// One owner per story; argon2 makes each sign-up slow, so they are created once, together.
let worked: Owner;
let noCard: Owner;
let refused: Owner;
beforeAll(async () => {
  t = await createTestApp({ startAt: new Date(START) });
  [worked, noCard, refused] = await Promise.all([onboardedUser(t), onboardedUser(t), onboardedUser(t)]);
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
