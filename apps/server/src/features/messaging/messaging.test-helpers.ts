import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { customers, messages, outbox } from '../../db/schema.ts';
import type { FakePlivo } from '../../test/fake-plivo.ts';
import { auth, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { plivoV3Signature } from './plivo-signature.ts';

/** A full user whose text number is requested and verified (on Plivo: the fake reports 10DLC COMPLETED). */
export async function businessWithNumber(t: TestApp, fake?: FakePlivo) {
  const user = await onboardedUser(t);
  const requested = await t.app.inject({
    method: 'POST',
    url: '/api/v1/phone-number/request',
    headers: auth(user.token),
    payload: {},
  });
  if (requested.statusCode !== 200) throw new Error(`request number failed: ${requested.body}`);
  const number = requested.json().data.number as string;
  fake?.registration.set(number.replace('+', ''), { tendlc_registration_status: 'COMPLETED' });
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/v1/phone-number/verify',
    headers: auth(user.token),
    payload: {},
  });
  if (verified.json().data?.status !== 'verified') throw new Error(`verify number failed: ${verified.body}`);
  return { ...user, number };
}

let phoneCounter = 0;
/** A fresh customer phone (E.164) that no other test uses. */
export function uniquePhone() {
  phoneCounter += 1;
  return `+1646${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(4, '0')}`;
}

/** A waiting, consenting customer on the user's waitlist, written directly (the waitlist API is H-DOMAIN's). */
export async function addCustomer(
  t: TestApp,
  userId: string,
  values: Partial<typeof customers.$inferInsert> = {},
) {
  const [row] = await t.database.db
    .insert(customers)
    .values({
      id: randomUUID(),
      userId,
      name: 'Ada Lovelace',
      phone: uniquePhone(),
      position: sql`(select coalesce(max(position), 0) + 1 from customers where user_id = ${userId})`,
      consentMethod: 'verbal',
      ...values,
    })
    .returning();
  return row!;
}

export async function customerRow(t: TestApp, id: string) {
  const [row] = await t.database.db.select().from(customers).where(eq(customers.id, id));
  return row!;
}

/** Outbound texts to a phone, in the order they were queued. */
export function textsTo(t: TestApp, phone: string) {
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.toNumber, phone), eq(messages.direction, 'out')))
    .orderBy(asc(messages.seq));
}

/** The bodies of the texts queued to a phone, in order. */
export async function textBodiesTo(t: TestApp, phone: string) {
  return (await textsTo(t, phone)).map((row) => row.body);
}

let inboundCounter = 0;
/** A customer's text to a business number, through the same inbound path as a webhook (a fresh provider id). */
export function receiveText(t: TestApp, from: string, to: string, text: string) {
  inboundCounter += 1;
  return t.app.services.conversation.receiveInbound({
    from,
    to,
    text,
    providerMessageId: `test-in-${randomUUID()}-${inboundCounter}`,
  });
}

/** A form POST signed like Plivo's (signature V3) with `authToken`, to `path` on PUBLIC_URL http://app.test. */
export function signedPlivoPost(
  t: TestApp,
  path: string,
  params: Record<string, string>,
  authToken: string,
  overrides: { nonce?: string; signature?: string | null } = {},
) {
  const nonce = overrides.nonce ?? randomUUID().replace(/-/g, '').slice(0, 20);
  const signature =
    overrides.signature === undefined
      ? plivoV3Signature(authToken, 'POST', `http://app.test${path}`, nonce, params)
      : overrides.signature;
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-plivo-signature-v3-nonce': nonce,
      ...(signature === null ? {} : { 'x-plivo-signature-v3': signature }),
    },
    payload: new URLSearchParams(params).toString(),
  });
}

/**
 * Runs the outbox until no text is left pending, moving the manual clock to each next due time (the send
 * rate and retry backoff hold texts back to a later time). Returns the number of clock moves.
 */
export async function deliverTexts(t: TestApp, maxSteps = 1000) {
  for (let step = 0; step < maxSteps; step += 1) {
    await t.app.outbox.drain();
    const [next] = await t.database.db
      .select({ at: outbox.nextAttemptAt })
      .from(outbox)
      .where(eq(outbox.status, 'pending'))
      .orderBy(asc(outbox.nextAttemptAt))
      .limit(1);
    if (!next) return step;
    const wait = next.at.getTime() - t.clock.now().getTime();
    t.clock.advance(Math.max(wait, 1));
  }
  throw new Error('texts still pending after maxSteps');
}
