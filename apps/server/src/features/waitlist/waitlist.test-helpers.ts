import type { Customer } from '@waitlist/contract';
import { and, asc, eq } from 'drizzle-orm';
import { messages, users } from '../../db/schema.ts';
import { auth, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';

/** Shared by the waitlist and openings API tests. */

export const BUSINESS_NUMBER = '+15555550100';

export function call(
  t: TestApp,
  token: string,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
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

let numberCounter = 0;
/** A full user with a verified text number, on `plan` (active when paid). */
export async function owner(
  t: TestApp,
  options: { plan?: 'free_trial' | 'starter' | 'growth'; timeZone?: string } = {},
) {
  const user = await onboardedUser(t);
  numberCounter += 1;
  const plan = options.plan ?? 'free_trial';
  await t.database.db
    .update(users)
    .set({
      plivoNumber: `+1555555${String(1000 + (numberCounter % 9000)).padStart(4, '0')}`,
      plivoNumberStatus: 'verified',
      subscriptionPlan: plan,
      subscriptionStatus: plan === 'free_trial' ? 'trialing' : 'active',
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
    })
    .where(eq(users.id, user.id));
  const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
  return { ...user, number: row!.plivoNumber! };
}

/** A valid US number for customer `n` (212-555-01xx… fictional but valid for libphonenumber). */
export const customerPhone = (n: number) => `+1212555${String(n).padStart(4, '0')}`;

export async function addCustomer(
  t: TestApp,
  token: string,
  n: number,
  extra: Partial<{
    name: string;
    phone: string;
    preferences: unknown[];
    notes: string;
    serviceId: string | null;
    staffId: string | null;
    timeZone: string | null;
    vip: boolean;
    pinned: boolean;
  }> = {},
) {
  const response = await call(t, token, 'POST', '/waitlist', {
    name: `Customer ${n}`,
    phone: customerPhone(n),
    consentMethod: 'verbal',
    ...extra,
  });
  if (response.statusCode !== 201) throw new Error(`add customer failed: ${response.body}`);
  return response.json().data as Customer;
}

/** Fills the waitlist quickly through the CSV import. */
export async function importCustomers(t: TestApp, token: string, from: number, count: number) {
  const lines = ['name,phone'];
  for (let n = from; n < from + count; n += 1) lines.push(`Customer ${n},${customerPhone(n)}`);
  const response = await call(t, token, 'POST', '/waitlist/import', { csv: lines.join('\n') });
  if (response.statusCode !== 200) throw new Error(`import failed: ${response.body}`);
  return response.json().data as { imported: number };
}

/** The bodies of the texts queued to a phone, oldest first. */
export async function textsTo(t: TestApp, phone: string) {
  const rows = await t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.toNumber, phone), eq(messages.direction, 'out')))
    .orderBy(asc(messages.seq));
  return rows.map((row) => row.body);
}

/** The inbox badge's count (GET /inbox/unread). */
export const unreadReplies = async (t: TestApp, token: string): Promise<number> =>
  (await call(t, token, 'GET', '/inbox/unread')).json().data.unread;

/**
 * A customer's text to the business number, received a second after the last one on the test clock, so
 * replies keep the order they were sent in (the inbox and the pushes sort by time).
 */
export function replyASecondLater(t: TestApp, from: string, to: string, text: string) {
  t.clock.advance(1000);
  return receiveText(t, from, to, text);
}
