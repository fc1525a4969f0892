import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { offerSettings, services, staffMembers, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner, textsTo as textsOf } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 26 through the API: only the entries that fit are offered, no alert goes out in the customer's quiet
 * hours (two time zones, a daylight-saving day), the daily cap, the preview.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 600;
const next = () => {
  n += 1;
  return n;
};

const textsTo = (phone: string) => textsOf(t, phone);

async function service(
  userId: string,
  name: string,
  durationMinutes: number,
  priceCents: number | null = null,
) {
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
const outcomes = (detail: { offers: { name: string; outcome: string }[] }) =>
  Object.fromEntries(detail.offers.map((offer) => [offer.name, offer.outcome]));

describe('service and staff', () => {
  it('offers a Cut with Maria only to the entries that fit; the form’s service fills name, length and price', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    const o = await owner(t, { plan: 'growth' });
    const cut = await service(o.id, 'Cut', 45, 6500);
    const colour = await service(o.id, 'Colour', 120, 15000);
    const maria = await staff(o.id, 'Maria');
    const jo = await staff(o.id, 'Jo');
    await addCustomer(t, o.token, next(), { name: 'Ann Cut Maria', serviceId: cut.id, staffId: maria.id });
    await addCustomer(t, o.token, next(), { name: 'Bea Colour', serviceId: colour.id });
    await addCustomer(t, o.token, next(), { name: 'Cal Jo', staffId: jo.id });
    await addCustomer(t, o.token, next(), { name: 'Dee Anything' });
    await addCustomer(t, o.token, next(), { name: 'Eve Cut', serviceId: cut.id });

    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-11-23T16:00',
      durationMinutes: 60,
      serviceId: cut.id,
      staffId: maria.id,
      mode: 'all',
    });
    expect(response.statusCode, response.body).toBe(201);
    const opening = response.json().data;
    expect(opening).toMatchObject({
      service: 'Cut',
      priceCents: 6500,
      serviceId: cut.id,
      staffName: 'Maria',
    });
    expect(opening.offers.map((offer: { name: string }) => offer.name).sort()).toEqual([
      'Ann Cut Maria',
      'Dee Anything',
      'Eve Cut',
    ]);
  });

  it('refuses another business’s service or staff member, and keeps the simple form for a business with none', async () => {
    const o = await owner(t, { plan: 'growth' });
    const other = await owner(t, { plan: 'growth' });
    const theirs = await service(other.id, 'Cut', 30);
    await addCustomer(t, o.token, next(), { name: 'Fay Simple' });
    const base = { startsAt: '2026-11-24T11:00', durationMinutes: 30, mode: 'all' };
    const foreign = await call(t, o.token, 'POST', '/openings', { ...base, serviceId: theirs.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual({ serviceId: 'Service not found' });
    const simple = await call(t, o.token, 'POST', '/openings', { ...base, service: 'Trim' });
    expect(simple.statusCode, simple.body).toBe(201);
    expect(simple.json().data).toMatchObject({ service: 'Trim', serviceId: null, staffId: null });
  });
});

describe('quiet hours', () => {
  it('holds a 9 pm alert until 8:00 in New York, texts a Los Angeles customer at once, and sends the held one at 8:00', async () => {
    t.clock.set(new Date('2026-11-24T02:00:00Z')); // Monday 21:00 in New York, 18:00 in Los Angeles
    const o = await owner(t, { plan: 'growth' });
    const ny = await addCustomer(t, o.token, next(), { name: 'Nia York' });
    const la = await addCustomer(t, o.token, next(), {
      name: 'Lou Angeles',
      timeZone: 'America/Los_Angeles',
    });
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-11-24T11:00',
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    expect(response.statusCode, response.body).toBe(201);
    const opening = response.json().data;
    expect(outcomes(opening)).toEqual({ 'Nia York': 'waiting_quiet_hours', 'Lou Angeles': 'texted' });
    expect(opening.offers.find((o: { name: string }) => o.name === 'Nia York').sendAt).toBe(
      '2026-11-24T13:00:00.000Z',
    );
    expect(await textsTo(ny.phone)).toHaveLength(0);
    expect(await textsTo(la.phone)).toHaveLength(1);

    t.clock.set(new Date('2026-11-24T12:59:00Z'));
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(ny.phone)).toHaveLength(0);
    t.clock.set(new Date('2026-11-24T13:00:00Z'));
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(ny.phone)).toHaveLength(1);
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(outcomes(detail)['Nia York']).toBe('texted');
  });

  it('skips a customer whose slot starts too soon after quiet hours end, and says so', async () => {
    t.clock.set(new Date('2026-11-24T02:00:00Z'));
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, next(), { name: 'Sam Early' });
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-11-24T08:05',
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().data.offers[0]).toMatchObject({
      outcome: 'not_texted_quiet_hours',
      skipReason: 'quiet_hours',
    });
  });

  it('opens at 8:00 local time on the day the clocks go forward (8 March 2026, New York)', async () => {
    t.clock.set(new Date('2026-03-08T04:00:00Z')); // Saturday 23:00 EST
    const o = await owner(t, { plan: 'growth' });
    const c = await addCustomer(t, o.token, next(), { name: 'Dana Spring' });
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-03-08T14:00',
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    expect(response.json().data.offers[0].sendAt).toBe('2026-03-08T12:00:00.000Z'); // 8:00 EDT
    t.clock.set(new Date('2026-03-08T11:59:00Z'));
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(c.phone)).toHaveLength(0);
    t.clock.set(new Date('2026-03-08T12:00:00Z'));
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(c.phone)).toHaveLength(1);
  });

  it('does not wake the others at night to say the slot is filled; the winner hears at once', async () => {
    t.clock.set(new Date('2026-11-24T00:55:00Z')); // 19:55 in New York
    const o = await owner(t, { plan: 'growth' });
    const winner = await addCustomer(t, o.token, next(), { name: 'Win Now' });
    const other = await addCustomer(t, o.token, next(), { name: 'Otto Sleep' });
    await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-11-24T10:00',
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    t.clock.set(new Date('2026-11-24T01:10:00Z')); // 20:10
    await t.app.services.conversation.receiveInbound({
      from: winner.phone,
      to: o.number,
      text: 'YES',
      providerMessageId: `quiet-yes-${n}`,
    });
    expect(await textsTo(winner.phone)).toHaveLength(2);
    expect(await textsTo(other.phone)).toHaveLength(1);
  });

  it('keeps the owner’s narrower window', async () => {
    t.clock.set(new Date('2026-11-23T13:30:00Z')); // 8:30 in New York
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.insert(offerSettings).values({ userId: o.id, sendFrom: '09:00', sendUntil: '18:00' });
    await addCustomer(t, o.token, next(), { name: 'Nora Nine' });
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: '2026-11-23T15:00',
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    expect(response.json().data.offers[0].sendAt).toBe('2026-11-23T14:00:00.000Z');
  });
});

describe('the daily cap', () => {
  it('does not offer a customer more slots a day than the owner allows; others still get theirs', async () => {
    t.clock.set(new Date('2026-11-23T15:00:00Z'));
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.insert(offerSettings).values({ userId: o.id, dailyOfferCap: 1 });
    const busy = await addCustomer(t, o.token, next(), { name: 'Busy Bee' });
    const open = (startsAt: string) =>
      call(t, o.token, 'POST', '/openings', { startsAt, durationMinutes: 30, service: 'Cut', mode: 'all' });
    expect((await open('2026-11-23T14:00')).statusCode).toBe(201);
    const fresh = await addCustomer(t, o.token, next(), { name: 'Fresh Face' });
    const second = (await open('2026-11-23T16:00')).json().data;
    expect(outcomes(second)).toEqual({ 'Busy Bee': 'not_texted_daily_cap', 'Fresh Face': 'texted' });
    expect(await textsTo(busy.phone)).toHaveLength(1);
    expect(await textsTo(fresh.phone)).toHaveLength(1);
    // Fresh Face claims: Busy Bee was texted about that slot but is at the cap, so hears nothing more.
    await t.app.services.conversation.receiveInbound({
      from: fresh.phone,
      to: o.number,
      text: 'YES',
      providerMessageId: `cap-yes-${n}`,
    });
    expect(await textsTo(busy.phone)).toHaveLength(1);
    // The next day (their midnight passed) they are offered again.
    t.clock.set(new Date('2026-11-24T15:00:00Z'));
    const third = (await open('2026-11-24T16:00')).json().data;
    expect(outcomes(third)['Busy Bee']).toBe('texted');
  });

  it('holds under two workers sending the same customer’s held texts at once: one goes, one is capped', async () => {
    t.clock.set(new Date('2026-11-24T02:00:00Z')); // 21:00 in New York: both alerts wait for 8:00
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.insert(offerSettings).values({ userId: o.id, dailyOfferCap: 1 });
    const only = await addCustomer(t, o.token, next(), { name: 'Ona Once' });
    const open = (startsAt: string) =>
      call(t, o.token, 'POST', '/openings', { startsAt, durationMinutes: 30, service: 'Cut', mode: 'all' });
    const first = (await open('2026-11-24T11:00')).json().data;
    const second = (await open('2026-11-24T14:00')).json().data;
    t.clock.set(new Date('2026-11-24T13:00:00Z'));
    const other = await buildApp({ config: t.config, database: t.database, clock: t.clock, logger: false });
    try {
      await other.ready();
      await Promise.all([t.app.openingsWorker.runOnce(), other.openingsWorker.runOnce()]);
    } finally {
      await other.close();
    }
    expect(await textsTo(only.phone)).toHaveLength(1);
    const results = await Promise.all(
      [first.id, second.id].map(async (id) => (await call(t, o.token, 'GET', `/openings/${id}`)).json().data),
    );
    expect(results.map((opening) => opening.offers[0].outcome).sort()).toEqual([
      'not_texted_daily_cap',
      'texted',
    ]);
  });
});

describe('the preview', () => {
  it('shows who would be asked and when the first text goes, and writes nothing', async () => {
    t.clock.set(new Date('2026-11-24T02:00:00Z')); // 21:00 in New York
    const o = await owner(t, { plan: 'growth' });
    const a = await addCustomer(t, o.token, next(), { name: 'Priya Patel' });
    await addCustomer(t, o.token, next(), { name: 'Jenny Moss' });
    const body = { startsAt: '2026-11-24T15:00', durationMinutes: 30, service: 'Cut', mode: 'all' };
    const response = await call(t, o.token, 'POST', '/openings/preview', body);
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json().data;
    expect(preview).toMatchObject({
      fitting: 2,
      mode: 'all',
      firstWave: 2,
      firstTextAt: '2026-11-24T13:00:00.000Z',
    });
    expect(preview.offers.map((offer: { name: string }) => offer.name)).toEqual([
      'Priya Patel',
      'Jenny Moss',
    ]);
    expect(preview.expectedTexts).toBeGreaterThan(0);
    const list = (await call(t, o.token, 'GET', '/openings')).json();
    expect(list.data).toHaveLength(0);
    expect(list.alertsToday.used).toBe(0);
    expect(await textsTo(a.phone)).toHaveLength(0);
  });

  it('refuses a business without a text number before planning, even when quiet hours would hold every text', async () => {
    t.clock.set(new Date('2026-11-24T02:00:00Z'));
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, next(), { name: 'Quinn Quiet' });
    await t.database.db
      .update(users)
      .set({ plivoNumber: null, plivoNumberStatus: null })
      .where(eq(users.id, o.id));
    const body = { startsAt: '2026-11-24T15:00', durationMinutes: 30, service: 'Cut' };
    for (const path of ['/openings/preview', '/openings']) {
      const response = await call(t, o.token, 'POST', path, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(
        'You have no text number yet. Request one in the Billing tab before sending texts.',
      );
    }
    expect((await call(t, o.token, 'GET', '/openings')).json().data).toHaveLength(0);
  });

  it('answers a clear error when nobody fits', async () => {
    const o = await owner(t, { plan: 'growth' });
    const response = await call(t, o.token, 'POST', '/openings/preview', {
      startsAt: '2026-11-25T15:00',
      durationMinutes: 30,
      service: 'Cut',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('No waiting, opted-in customers fit this time');
  });
});
