import { authMessages, billingMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localBillingCustomers, localBillingPaymentMethods, users } from '../../db/schema.ts';
import { localPrices } from '../../providers/billing/local-billing-math.ts';
import {
  auth,
  createTestApp,
  latestEmailTo,
  onboardedUser,
  registerUser,
  type TestApp,
} from '../../test/test-app.ts';
import {
  addCard,
  billingCall,
  confirmCard,
  createSetupIntent,
  pathOf,
  TEST_CARDS,
  userRow,
} from './billing.test-helpers.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof onboardedUser>>;
let other: Awaited<ReturnType<typeof onboardedUser>>;
beforeAll(async () => {
  t = await createTestApp();
  [owner, other] = await Promise.all([onboardedUser(t), onboardedUser(t)]);
});
afterAll(() => t.close());

const cardsOf = async (token: string) =>
  (await billingCall(t, token, 'GET', '/stripe/payment-methods')).json().paymentMethods as Array<{
    id: string;
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    isDefault: boolean;
  }>;

/** Every billing call of SPEC §7 (and the local card confirmation), with a valid body. */
const billingCalls: Array<['GET' | 'POST' | 'DELETE', string, object?]> = [
  ['GET', '/stripe/pricing'],
  ['GET', '/stripe/subscription'],
  ['POST', '/stripe/create-checkout-session', { planType: 'STARTER', billingPeriod: 'monthly' }],
  ['POST', '/stripe/cancel-subscription'],
  ['POST', '/stripe/update-subscription', { planType: 'STARTER', billingPeriod: 'monthly' }],
  [
    'POST',
    '/stripe/update-subscription-with-existing-payment',
    { planType: 'STARTER', billingPeriod: 'monthly' },
  ],
  ['POST', '/stripe/resume-subscription'],
  ['GET', '/stripe/payment-methods'],
  ['POST', '/stripe/payment-methods', { paymentMethodId: 'pm_x' }],
  ['DELETE', '/stripe/payment-methods/pm_x'],
  ['POST', '/stripe/payment-methods/default', { paymentMethodId: 'pm_x' }],
  ['GET', '/stripe/invoices'],
  ['POST', '/stripe/setup-intent'],
  ['POST', '/stripe/update-billing-details', { name: 'Bella Rossi' }],
  ['POST', '/stripe/create-portal-session'],
  ['POST', '/notifications/plan-change', { oldPlan: 'Free Trial', newPlan: 'Starter Plan' }],
  ['POST', '/notifications/plan-cancel'],
  ['POST', '/notifications/billing-update'],
  [
    'POST',
    '/billing/local/setup-intents/confirm',
    { clientSecret: 'x', number: '4242', expMonth: 1, expYear: 2030, cvc: '123' },
  ],
];

describe('who may call billing (SPEC §6)', () => {
  it('answers 401 to visitors on every billing call', async () => {
    for (const [method, path, payload] of billingCalls) {
      const response = await t.app.inject({ method, url: `/api/v1${path}`, ...(payload ? { payload } : {}) });
      expect(response.statusCode, `${method} ${path}`).toBe(401);
      expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
    }
  });

  it('answers 403 to unverified users, and to verified users without business details', async () => {
    const unverified = await registerUser(t);
    for (const [method, path, payload] of billingCalls) {
      const response = await billingCall(t, unverified.token, method, path, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().message).toBe(authMessages.notVerified);
    }
    await t.database.db.update(users).set({ verified: true }).where(eq(users.id, unverified.id));
    const response = await billingCall(t, unverified.token, 'GET', '/stripe/subscription');
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(billingMessages.businessDetailsRequired);
  });
});

describe('GET /config and GET /stripe/pricing', () => {
  it('tells the web app billing is local (test cards, no publishable key)', async () => {
    const response = await t.app.inject({ url: '/api/v1/config' });
    expect(response.json().billing).toEqual({ provider: 'local', publishableKey: null, configured: true });
  });

  it('answers the local prices in cents, yearly a true 20% below twelve months', async () => {
    const response = await billingCall(t, owner.token, 'GET', '/stripe/pricing');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, pricing: localPrices() });
    expect(localPrices().STARTER.yearly.amount).toBe(Math.round(2900 * 12 * 0.8));
    expect(localPrices().GROWTH.yearly.amount).toBe(Math.round(7900 * 12 * 0.8));
  });

  it('shows a new owner no subscription, cards or invoices, without creating a customer', async () => {
    expect((await billingCall(t, other.token, 'GET', '/stripe/subscription')).json()).toEqual({
      success: true,
      subscription: null,
    });
    expect(await cardsOf(other.token)).toEqual([]);
    expect((await billingCall(t, other.token, 'GET', '/stripe/invoices')).json()).toEqual({
      success: true,
      invoices: [],
    });
    expect((await userRow(t, other.id)).billingCustomerId).toBeNull();
  });
});

describe('cards: setup intent, confirmation with each test card', () => {
  it('refuses each bad test card with its message and keeps the setup intent usable', async () => {
    const clientSecret = await createSetupIntent(t, owner.token);
    expect(clientSecret).toMatch(/^seti_[\w-]+_secret_[\w-]+$/);
    const cases: Array<[Parameters<typeof confirmCard>[3], string]> = [
      [{ number: TEST_CARDS.declined }, billingMessages.cardDeclined],
      [{ number: TEST_CARDS.insufficientFunds }, billingMessages.insufficientFunds],
      [{ number: '4242 4242 4242 4241' }, billingMessages.incorrectNumber],
      [{ number: '4111 1111 1111 1111' }, billingMessages.testCardsOnly],
      [{ expMonth: 10, expYear: 2026 }, billingMessages.expiredCard],
      [{ expMonth: 13, expYear: 2030 }, billingMessages.invalidExpiry],
      [{ cvc: '12' }, billingMessages.incorrectCvc],
      [{ cvc: 'abc' }, billingMessages.incorrectCvc],
    ];
    for (const [card, message] of cases) {
      const response = await confirmCard(t, owner.token, clientSecret, card);
      expect(response.statusCode, JSON.stringify(card)).toBe(400);
      expect(response.json()).toEqual({ success: false, message });
    }
    expect(await cardsOf(owner.token)).toEqual([]);

    const accepted = await confirmCard(t, owner.token, clientSecret, { expMonth: 11, expYear: 26 });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ success: true, paymentMethodId: expect.stringMatching(/^pm_/) });
    // Used once: a second confirmation with the same secret is refused.
    const again = await confirmCard(t, owner.token, clientSecret);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(billingMessages.setupIntentInvalid);
    expect(await cardsOf(owner.token)).toEqual([
      {
        id: accepted.json().paymentMethodId,
        brand: 'visa',
        last4: '4242',
        exp_month: 11,
        exp_year: 2026,
        isDefault: true,
      },
    ]);
  });

  it('stores only the brand, last four digits and expiry of a card', async () => {
    const rows = await t.database.db.select().from(localBillingPaymentMethods);
    expect(rows.length).toBeGreaterThan(0);
    const stored = JSON.stringify(rows);
    expect(stored).not.toMatch(/4242424242424242|4242 4242|"123"/);
    expect(Object.keys(rows[0]!).sort()).toEqual(
      [
        'id',
        'customerId',
        'brand',
        'last4',
        'expMonth',
        'expYear',
        'attachedAt',
        'detachedAt',
        'createdAt',
        'position',
      ].sort(),
    );
  });

  it("refuses another owner's setup intent", async () => {
    const othersSecret = await createSetupIntent(t, other.token);
    const response = await confirmCard(t, owner.token, othersSecret);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(billingMessages.setupIntentInvalid);
  });
});

describe('cards: attach, list, default, delete', () => {
  it('adds a second card that is not the default, and makes it the default on request', async () => {
    const [first] = await cardsOf(owner.token);
    const added = await addCard(t, owner.token, TEST_CARDS.mastercard);
    let cards = await cardsOf(owner.token);
    expect(cards.map((card) => [card.brand, card.last4, card.isDefault])).toEqual([
      ['mastercard', '4444', false],
      ['visa', '4242', true],
    ]);

    const response = await billingCall(t, owner.token, 'POST', '/stripe/payment-methods/default', {
      paymentMethodId: added,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(billingMessages.defaultPaymentMethodUpdated);
    cards = response.json().paymentMethods;
    expect(cards.find((card) => card.isDefault)?.id).toBe(added);
    expect(cards.filter((card) => card.isDefault)).toHaveLength(1);
    expect(first?.isDefault).toBe(true);
  });

  it('deleting the default card makes the newest remaining card the default', async () => {
    const third = await addCard(t, owner.token, TEST_CARDS.visa);
    const defaultCard = (await cardsOf(owner.token)).find((card) => card.isDefault)!;
    const response = await billingCall(t, owner.token, 'DELETE', `/stripe/payment-methods/${defaultCard.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(billingMessages.paymentMethodDeleted);
    const cards = response.json().paymentMethods as Array<{ id: string; isDefault: boolean }>;
    expect(cards.map((card) => card.id)).not.toContain(defaultCard.id);
    expect(cards.find((card) => card.isDefault)?.id).toBe(third);
  });

  it("answers 404 for another owner's card, an unknown card and a deleted one", async () => {
    const othersCard = await addCard(t, other.token);
    const [mine] = await cardsOf(owner.token);
    for (const request of [
      () => billingCall(t, owner.token, 'DELETE', `/stripe/payment-methods/${othersCard}`),
      () =>
        billingCall(t, owner.token, 'POST', '/stripe/payment-methods/default', {
          paymentMethodId: othersCard,
        }),
      () => billingCall(t, owner.token, 'POST', '/stripe/payment-methods', { paymentMethodId: othersCard }),
      () => billingCall(t, owner.token, 'DELETE', '/stripe/payment-methods/pm_unknown'),
    ]) {
      const response = await request();
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ success: false, message: billingMessages.paymentMethodNotFound });
    }
    expect((await cardsOf(other.token)).map((card) => card.id)).toEqual([othersCard]);
    await billingCall(t, owner.token, 'DELETE', `/stripe/payment-methods/${mine!.id}`);
    const gone = await billingCall(t, owner.token, 'DELETE', `/stripe/payment-methods/${mine!.id}`);
    expect(gone.statusCode).toBe(404);
  });

  it('validates the payment method id', async () => {
    const response = await billingCall(t, owner.token, 'POST', '/stripe/payment-methods', {});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Please choose a card.');
  });
});

describe('billing details and the billing portal', () => {
  it('stores billing details on the customer', async () => {
    const response = await billingCall(t, owner.token, 'POST', '/stripe/update-billing-details', {
      name: 'Bella Salon LLC',
      address: { line1: '1 Main St', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: billingMessages.billingDetailsUpdated });
    const user = await userRow(t, owner.id);
    const [customer] = await t.database.db
      .select()
      .from(localBillingCustomers)
      .where(eq(localBillingCustomers.id, user.billingCustomerId!));
    expect(customer).toMatchObject({ name: 'Bella Salon LLC', address: { city: 'Springfield' } });

    const invalid = await billingCall(t, owner.token, 'POST', '/stripe/update-billing-details', {
      email: 'not-an-email',
    });
    expect(invalid.statusCode).toBe(400);
  });

  it('opens a portal session whose page answers 200 with a Return link to the Billing tab', async () => {
    const response = await billingCall(t, owner.token, 'POST', '/stripe/create-portal-session');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data.url).toMatch(/^http:\/\/app\.test\/billing\/local\/portal\/bps_[\w-]{32}$/);
    expect(data.id).toBe(data.url.split('/').pop());
    const portal = await t.app.inject({ url: pathOf(data.url) });
    expect(portal.statusCode).toBe(200);
    expect(portal.headers['content-type']).toContain('text/html');
    expect(portal.headers['content-security-policy']).toContain("form-action 'self' http://app.test");
    expect(portal.body).toContain('Visa •••• 4242');
    expect(portal.body).toContain('href="http://app.test/account?tab=billing"');
    expect(portal.body).toContain('Return to Waitlist &amp; Text');

    expect((await t.app.inject({ url: '/billing/local/portal/bps_not-a-real-session' })).statusCode).toBe(
      404,
    );
  });
});

describe('notifications', () => {
  it('emails the owner once per call through the outbox', async () => {
    const planChange = await billingCall(t, owner.token, 'POST', '/notifications/plan-change', {
      oldPlan: 'free_trial',
      newPlan: 'Growth Plan',
    });
    expect(planChange.statusCode).toBe(200);
    expect(planChange.json()).toEqual({ success: true, message: billingMessages.notificationSent });
    let email = await latestEmailTo(t, owner.email);
    expect(email?.subject).toBe('Your plan: Growth Plan');
    expect(email?.text).toContain('changed from Free Trial to Growth Plan');

    await billingCall(t, owner.token, 'POST', '/notifications/plan-cancel');
    email = await latestEmailTo(t, owner.email);
    expect(email?.subject).toBe('Your subscription is cancelled');

    await billingCall(t, owner.token, 'POST', '/notifications/billing-update');
    email = await latestEmailTo(t, owner.email);
    expect(email?.subject).toBe('Your billing information was updated');
    expect(email?.html).toContain('http://app.test/account?tab=billing');
  });

  it('escapes what the client sends and checks its shape', async () => {
    await billingCall(t, owner.token, 'POST', '/notifications/plan-change', {
      oldPlan: '<b>x</b>',
      newPlan: 'Starter Plan',
    });
    const email = await latestEmailTo(t, owner.email);
    expect(email?.html).toContain('&#60;b&#62;x&#60;/b&#62;');
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/notifications/plan-change',
      headers: auth(owner.token),
      payload: { oldPlan: 'Free Trial' },
    });
    expect(missing.statusCode).toBe(400);
  });
});
