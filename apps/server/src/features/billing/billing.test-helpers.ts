import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.ts';
import { auth, type TestApp } from '../../test/test-app.ts';

/** Shared by the billing API tests: the calls a browser makes, through `app.inject()`. */

export const TEST_CARDS = {
  visa: '4242 4242 4242 4242',
  mastercard: '5555 5555 5555 4444',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  chargesFail: '4000 0000 0000 0341',
} as const;

export function billingCall(
  t: TestApp,
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url: `/api/v1${path}`,
    headers: auth(token),
    ...(payload ? { payload } : {}),
  });
}

export async function createSetupIntent(t: TestApp, token: string): Promise<string> {
  const response = await billingCall(t, token, 'POST', '/stripe/setup-intent');
  if (response.statusCode !== 200) throw new Error(`setup intent failed: ${response.body}`);
  return response.json().clientSecret;
}

export function confirmCard(
  t: TestApp,
  token: string,
  clientSecret: string,
  card: Partial<{ number: string; expMonth: number; expYear: number; cvc: string }> = {},
) {
  return billingCall(t, token, 'POST', '/billing/local/setup-intents/confirm', {
    clientSecret,
    number: TEST_CARDS.visa,
    expMonth: 12,
    expYear: 2030,
    cvc: '123',
    ...card,
  });
}

/** Adds a card the way the web's card form does: setup intent, confirm, then attach. Returns its id. */
export async function addCard(t: TestApp, token: string, number: string = TEST_CARDS.visa): Promise<string> {
  const confirmed = await confirmCard(t, token, await createSetupIntent(t, token), { number });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  const { paymentMethodId } = confirmed.json();
  const attached = await billingCall(t, token, 'POST', '/stripe/payment-methods', { paymentMethodId });
  if (attached.statusCode !== 200) throw new Error(`attach failed: ${attached.body}`);
  return paymentMethodId;
}

export function changePlan(
  t: TestApp,
  token: string,
  planType: 'STARTER' | 'GROWTH',
  billingPeriod: 'monthly' | 'yearly' = 'monthly',
) {
  return billingCall(t, token, 'POST', '/stripe/update-subscription-with-existing-payment', {
    planType,
    billingPeriod,
  });
}

export async function invoicesOf(t: TestApp, token: string) {
  return (await billingCall(t, token, 'GET', '/stripe/invoices')).json().invoices as Array<{
    id: string;
    number: string;
    amount_paid: number;
    amount_due: number;
    status: string;
    description: string;
    hosted_invoice_url: string;
    invoice_pdf: string;
    created: number;
  }>;
}

export async function subscriptionOf(t: TestApp, token: string) {
  return (await billingCall(t, token, 'GET', '/stripe/subscription')).json().subscription;
}

export async function userRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(users).where(eq(users.id, id));
  return row!;
}

/** The path of one of our absolute links (PUBLIC_URL is http://app.test in tests). */
export const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

export const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
