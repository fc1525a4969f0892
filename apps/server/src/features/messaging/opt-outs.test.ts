import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, smsOptOuts } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { enqueueSms } from '../../test/texting.ts';
import { addCustomer, call, customerPhone, owner } from '../waitlist/waitlist.test-helpers.ts';
import { deliverTexts, receiveText, textsTo } from './messaging.test-helpers.ts';

/**
 * Issue 24: an opt-out per business and phone (sms_opt_outs), recorded by STOP from any path, removed only by
 * START, checked before every text whatever queued it, and kept when a customer is removed and added again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const optOutsOf = (phone: string) =>
  t.database.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone));
const rowsOf = (phone: string) => t.database.db.select().from(customers).where(eq(customers.phone, phone));
const sendText = (token: string, id: string, body: string) =>
  call(t, token, 'POST', `/waitlist/${id}/messages`, { body });
/** An opt-out written behind the customers row's back, as one recorded on another path would be. */
const optOutOnly = (userId: string, phone: string) =>
  t.database.db.insert(smsOptOuts).values({ userId, phone, optedOutAt: t.clock.now() });

describe('the opt-out of a business and a phone', () => {
  it('survives the customer being removed and added again, by hand or by import', async () => {
    const o = await owner(t, { plan: 'growth' });
    const phone = customerPhone(3001);
    const first = await addCustomer(t, o.token, 3001);
    expect(await receiveText(t, phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
    expect(await optOutsOf(phone)).toHaveLength(1);
    expect((await call(t, o.token, 'DELETE', `/waitlist/${first.id}`)).statusCode).toBe(200);

    const again = await addCustomer(t, o.token, 3001);
    const added = (await call(t, o.token, 'GET', '/waitlist'))
      .json()
      .data.find((row: { id: string }) => row.id === again.id);
    expect(added).toMatchObject({ optedOut: true });
    const refused = await sendText(o.token, again.id, 'A slot opened');
    expect(refused.statusCode).toBe(403);
    expect((await textsTo(t, phone)).map((text) => text.body)).toEqual([
      expect.stringMatching(/unsubscribed/),
    ]);

    // Removed again and imported: still opted out.
    await call(t, o.token, 'DELETE', `/waitlist/${again.id}`);
    await call(t, o.token, 'POST', '/waitlist/import', { csv: `name,phone\nCustomer,${phone}` });
    const live = (await rowsOf(phone)).find((row) => row.status !== 'removed');
    expect(live).toMatchObject({ optedOut: true });

    // Its own START lifts it, on every row of the phone.
    expect(await receiveText(t, phone, o.number, 'START')).toMatchObject({ action: 'opted_in' });
    expect(await optOutsOf(phone)).toEqual([]);
    expect((await rowsOf(phone)).every((row) => !row.optedOut)).toBe(true);
    expect((await sendText(o.token, live!.id, 'Welcome back')).statusCode).toBe(201);
  });

  it('moves with the number: a customer renumbered to an opted-out phone is opted out', async () => {
    const o = await owner(t, { plan: 'growth' });
    const customer = await addCustomer(t, o.token, 3101);
    const stopped = customerPhone(3102);
    await receiveText(t, stopped, o.number, 'STOP');
    const changed = await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, { phone: stopped });
    expect(changed.json().data).toMatchObject({ phone: stopped, optedOut: true });
  });

  it('is checked before every text, whatever queued it, even when the customers row says otherwise', async () => {
    const o = await owner(t, { plan: 'growth' });
    const customer = await addCustomer(t, o.token, 3201);
    await optOutOnly(o.id, customer.phone);

    // The owner's text (the batch claim, then the general path, which says why).
    const refused = await sendText(o.token, customer.id, 'Hello');
    expect(refused.statusCode).toBe(403);
    // A text to the number with no customer behind it (a join confirmation, say).
    const stranger = customerPhone(3202);
    await optOutOnly(o.id, stranger);
    await expect(
      t.database.db.transaction((tx) =>
        enqueueSms(tx, { userId: o.id, to: stranger, body: 'Reply YES', now: t.clock.now() }),
      ),
    ).rejects.toMatchObject({ statusCode: 403, reason: 'opted_out' });
    // The one-statement automatic answer to a free-text reply.
    await receiveText(t, customer.phone, o.number, 'Can I come at 4?');
    // An opening's alert.
    const opening = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 60 * 60 * 1000).toISOString(),
      durationMinutes: 45,
      service: 'Haircut',
      priceCents: 6500,
      mode: 'all',
    });
    expect(opening.statusCode, opening.body).toBe(400); // nobody left to alert, rather than a refusal
    expect(await textsTo(t, customer.phone)).toEqual([]);
    expect(await textsTo(t, stranger)).toEqual([]);
  });

  it('stops a text queued before the STOP from going out', async () => {
    const o = await owner(t, { plan: 'growth' });
    const phone = customerPhone(3301);
    // A join confirmation: no customer row behind it, so only sms_opt_outs can stop it.
    await t.database.db.transaction((tx) =>
      enqueueSms(tx, { userId: o.id, to: phone, body: 'Reply YES to join', now: t.clock.now() }),
    );
    await optOutOnly(o.id, phone);
    await deliverTexts(t);
    expect((await textsTo(t, phone)).map((text) => text.status)).toEqual(['failed']);
  });
});
