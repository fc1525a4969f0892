import { smsEncoding } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offerSettings, openings, services, staffMembers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner, textsTo as textsOf } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 39 through the API: a customer offered a slot for another service than their own is told it is for
 * theirs, with the stylist, and earns what they book (item 4); the preview names who is held back and when,
 * and who is left out and why (item 6).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 3900;
const next = () => {
  n += 1;
  return n;
};
const textsTo = (phone: string) => textsOf(t, phone);

async function service(userId: string, name: string, durationMinutes: number, priceCents: number | null) {
  const [row] = await t.database.db
    .insert(services)
    .values({ userId, name, durationMinutes, priceCents })
    .returning();
  return row!;
}
async function staff(userId: string, name: string) {
  const [row] = await t.database.db.insert(staffMembers).values({ userId, name }).returning();
  return row!;
}
const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();

describe('a slot for another service than the customer waits for (item 4)', () => {
  it('texts their service with the stylist, in English and Spanish, and the earnings count their price', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    const cut = await service(o.id, 'Women’s cut', 45, 6500);
    const blowout = await service(o.id, 'Blowout', 45, 4500);
    const priya = await staff(o.id, 'Priya');
    const ava = await addCustomer(t, o.token, next(), { name: 'Ava Stone', serviceId: blowout.id });
    const sofia = await addCustomer(t, o.token, next(), {
      name: 'Sofía Luna',
      serviceId: blowout.id,
      language: 'es',
    } as object);
    const mia = await addCustomer(t, o.token, next(), { name: 'Mia Cole', serviceId: cut.id });

    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: inHours(4),
      durationMinutes: 60,
      serviceId: cut.id,
      staffId: priya.id,
      mode: 'all',
    });
    expect(opened.statusCode, opened.body).toBe(201);

    const [toAva] = await textsTo(ava.phone);
    expect(toAva).toContain('for your Blowout with Priya');
    expect(toAva).not.toContain('Women’s cut');
    const [toSofia] = await textsTo(sofia.phone);
    expect(toSofia).toContain('para tu Blowout con Priya');
    expect(toSofia).not.toContain('Women’s cut');
    // The words added stay in the 160-character encoding.
    expect(smsEncoding('for your Blowout with Priya para tu Blowout con Priya')).toBe('GSM-7');
    // A customer who waits for the slot's own service reads it as before.
    const [toMia] = await textsTo(mia.phone);
    expect(toMia).toContain('(Women’s cut)');

    await receiveText(t, ava.phone, o.number, 'YES');
    const opening = (await call(t, o.token, 'GET', `/openings/${opened.json().data.id}`)).json().data;
    expect(opening.status).toBe('filled');
    const earnings = (await call(t, o.token, 'GET', '/dashboard/earnings')).json().data;
    expect(earnings.revenueRecoveredCents).toBe(4500);

    // The price is fixed when she claims: the owner raising the Blowout's price later leaves it alone.
    await t.database.db.update(services).set({ priceCents: 5500 }).where(eq(services.id, blowout.id));
    const [stored] = await t.database.db
      .select({ booked: openings.bookedPriceCents })
      .from(openings)
      .where(eq(openings.id, opened.json().data.id));
    expect(stored?.booked).toBe(4500);
    const after = (await call(t, o.token, 'GET', '/dashboard/earnings')).json().data;
    expect(after.revenueRecoveredCents).toBe(4500);

    // Released by the owner, the slot holds no booked price until the next winner claims it.
    const released = await call(t, o.token, 'POST', `/openings/${opened.json().data.id}/release`, {});
    expect(released.statusCode, released.body).toBeLessThan(300);
    const [cleared] = await t.database.db
      .select({ booked: openings.bookedPriceCents, status: openings.status })
      .from(openings)
      .where(eq(openings.id, opened.json().data.id));
    expect(cleared).toEqual({ booked: null, status: 'open' });
    const none = (await call(t, o.token, 'GET', '/dashboard/earnings')).json().data;
    expect(none.revenueRecoveredCents).toBe(0);
  });
});

describe('the preview (item 6)', () => {
  it('names who is held back by quiet hours with when, and lists who is left out with why', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z')); // Monday, 10:00 in New York, 5:00 in Honolulu
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    await t.database.db.insert(offerSettings).values({ userId: o.id, dailyOfferCap: 1 });
    const colour = await service(o.id, 'Colour', 120, 15000);
    const jo = await staff(o.id, 'Jo');
    const open = (startsAt: string) =>
      call(t, o.token, 'POST', '/openings', { startsAt, durationMinutes: 60, service: 'Cut', mode: 'all' });
    const busy = await addCustomer(t, o.token, next(), { name: 'Quinn Busy' });
    expect((await open('2026-11-23T12:00')).statusCode).toBe(201);
    expect(await textsTo(busy.phone)).toHaveLength(1);
    await addCustomer(t, o.token, next(), { name: 'Kai Akana', timeZone: 'Pacific/Honolulu' });
    await addCustomer(t, o.token, next(), { name: 'Leo Park' });
    await addCustomer(t, o.token, next(), {
      name: 'Ned Saturdays',
      preferences: [{ days: [6], from: '09:00', to: '17:00' }],
    });
    await addCustomer(t, o.token, next(), { name: 'Olga Jo', staffId: jo.id });
    await addCustomer(t, o.token, next(), { name: 'Pat Colour', serviceId: colour.id });

    const preview = await call(t, o.token, 'POST', '/openings/preview', {
      startsAt: '2026-11-23T16:00',
      durationMinutes: 60,
      service: 'Cut',
      mode: 'all',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json().data;
    const byName = Object.fromEntries(
      plan.offers.map((offer: { name: string }) => [offer.name, offer]),
    ) as Record<string, { sendAt: string | null; skipReason: string | null; timeZone: string }>;
    // Kai is held until 8:00 in Honolulu (18:00 UTC), in Kai's own time zone; Leo goes now.
    expect(byName['Kai Akana']).toMatchObject({
      sendAt: '2026-11-23T18:00:00.000Z',
      skipReason: null,
      timeZone: 'Pacific/Honolulu',
    });
    expect(byName['Leo Park']).toMatchObject({
      sendAt: t.clock.now().toISOString(),
      timeZone: 'America/New_York',
    });
    expect(byName['Quinn Busy']).toMatchObject({ sendAt: null, skipReason: 'daily_cap' });
    // Those who do not fit are listed, with why; nothing was sent for the preview.
    expect(
      Object.fromEntries(
        plan.leftOut.map((left: { name: string; reason: string }) => [left.name, left.reason]),
      ),
    ).toEqual({ 'Ned Saturdays': 'time_preference', 'Olga Jo': 'staff', 'Pat Colour': 'service' });
    expect(await textsTo(busy.phone)).toHaveLength(1);
  });
});
