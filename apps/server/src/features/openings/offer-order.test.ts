import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offers, openings } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner, textsTo as textsOf } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 26 through the API: the automatic order learned from a seeded history, VIP and pin, the automatic
 * waves, and a winner who backs out.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 700;
const next = () => {
  n += 1;
  return n;
};
const HOUR = 3_600_000;

const textsTo = (phone: string) => textsOf(t, phone);

/** Past alerts of the business: `claims` of `offered` claimed by the customer, each answered in 4 minutes. */
async function history(userId: string, customerId: string, offered: number, claims: number) {
  const now = t.clock.now().getTime();
  for (let i = 0; i < offered; i += 1) {
    const sentAt = new Date(now - (10 + i) * 24 * HOUR);
    const won = i < claims;
    const [opening] = await t.database.db
      .insert(openings)
      .values({
        userId,
        startsAt: new Date(sentAt.getTime() + 5 * HOUR),
        durationMinutes: 30,
        service: 'Cut',
        status: won ? 'filled' : 'expired',
        mode: 'all',
        winnerCustomerId: won ? customerId : null,
        filledAt: won ? new Date(sentAt.getTime() + 4 * 60_000) : null,
        localDate: sentAt.toISOString().slice(0, 10),
        createdAt: sentAt,
      })
      .returning();
    await t.database.db.insert(offers).values({
      openingId: opening!.id,
      customerId,
      wave: 1,
      sentAt,
      status: won ? 'won' : 'lost',
      claimedAt: won ? new Date(sentAt.getTime() + 4 * 60_000) : null,
    });
  }
}

const reply = (from: string, to: string, text: string) =>
  t.app.services.conversation.receiveInbound({
    from,
    to,
    text,
    providerMessageId: `order-${from}-${next()}`,
  });

describe('the automatic order', () => {
  it('asks first the customer who claims, then the newcomer, then the one who never answers, and says why', async () => {
    const o = await owner(t, { plan: 'growth' });
    const cold = await addCustomer(t, o.token, next(), { name: 'Cole Never' });
    const fresh = await addCustomer(t, o.token, next(), { name: 'Fran New' });
    const keen = await addCustomer(t, o.token, next(), { name: 'Kim Keen' });
    await history(o.id, keen.id, 4, 3);
    await history(o.id, cold.id, 8, 0);
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 26 * HOUR).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
    });
    expect(response.statusCode, response.body).toBe(201);
    const opening = response.json().data;
    expect(opening.mode).toBe('auto');
    const byRank = [...opening.offers].sort((a, b) => a.rank - b.rank);
    expect(byRank.map((offer) => offer.name)).toEqual(['Kim Keen', 'Fran New', 'Cole Never']);
    expect(byRank[0]).toMatchObject({ reason: '1st: claimed 3 of 4 offers, replies in ~4 min', wave: 1 });
    expect(byRank[1].reason).toMatch(/^2nd: new: no offers yet/);
    // Kim claims 3 of 4: the plan asks her alone first, the others wait for her claim window.
    expect(await textsTo(keen.phone)).toHaveLength(1);
    expect(await textsTo(fresh.phone)).toHaveLength(0);
    expect(opening.claimWindowMinutes).toBeGreaterThanOrEqual(5);

    t.clock.advance(opening.claimWindowMinutes * 60_000);
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(fresh.phone)).toHaveLength(1);
  });

  it('learns from every YES, one too late included, unless the customer had been told it was filled', async () => {
    const o = await owner(t, { plan: 'growth' });
    // 19:55 in London, 14:55 in New York: everyone is texted; at 20:01 Leo (London) is not told the slot
    // was filled (quiet hours), so his late YES is a claim; Tom (New York) was told, so his is not.
    t.clock.set(new Date('2026-11-23T19:55:00Z'));
    const told = await addCustomer(t, o.token, next(), { name: 'Told Tom' });
    const fast = await addCustomer(t, o.token, next(), { name: 'Fast Fiona' });
    const late = await addCustomer(t, o.token, next(), { name: 'Late Leo', timeZone: 'Europe/London' });
    await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 5 * HOUR).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    t.clock.advance(6 * 60_000);
    await reply(fast.phone, o.number, 'YES');
    t.clock.advance(4 * 60_000);
    await reply(late.phone, o.number, 'yes please');
    await reply(told.phone, o.number, 'yes');
    await call(t, o.token, 'PATCH', `/waitlist/${fast.id}`, { status: 'waiting' });
    const preview = (
      await call(t, o.token, 'POST', '/openings/preview', {
        startsAt: new Date(t.clock.now().getTime() + 26 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
      })
    ).json().data;
    const reasons = Object.fromEntries(
      preview.offers.map((offer: { name: string; reason: string }) => [offer.name, offer.reason]),
    );
    expect(reasons['Fast Fiona']).toMatch(/claimed 1 of 1 offer, replies in ~6 min/);
    expect(reasons['Late Leo']).toMatch(/claimed 1 of 1 offer, replies in ~10 min/);
    expect(reasons['Told Tom']).toMatch(/claimed 0 of 1 offer/);
  });

  it('puts a pinned customer first and a VIP ahead of an equal customer', async () => {
    const o = await owner(t, { plan: 'growth' });
    const plain = await addCustomer(t, o.token, next(), { name: 'Pat Plain' });
    const vip = await addCustomer(t, o.token, next(), { name: 'Val Vip', vip: true });
    const pinned = await addCustomer(t, o.token, next(), { name: 'Pia Pinned', pinned: true });
    for (const customer of [plain, vip, pinned]) await history(o.id, customer.id, 4, 1);
    const preview = (
      await call(t, o.token, 'POST', '/openings/preview', {
        startsAt: new Date(t.clock.now().getTime() + 26 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
      })
    ).json().data;
    expect(preview.offers.map((offer: { name: string }) => offer.name)).toEqual([
      'Pia Pinned',
      'Val Vip',
      'Pat Plain',
    ]);
    expect(preview.offers[0].reason).toMatch(/^1st: pinned first/);
    expect(preview.offers[1].reason).toMatch(/^2nd: VIP/);
  });

  it('texts everyone at once for a slot in 25 minutes', async () => {
    const o = await owner(t, { plan: 'growth' });
    const all = [];
    for (let i = 0; i < 4; i += 1) all.push(await addCustomer(t, o.token, next()));
    const response = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 25 * 60_000).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
    });
    const opening = response.json().data;
    expect(opening.offers.every((offer: { wave: number }) => offer.wave === 1)).toBe(true);
    for (const customer of all) expect(await textsTo(customer.phone)).toHaveLength(1);
  });
});

describe('when the winner backs out', () => {
  it('offers the slot to the next customers, not to the one who backed out, without using another alert', async () => {
    const o = await owner(t, { plan: 'starter' });
    const first = await addCustomer(t, o.token, next(), { name: 'Wes Winner' });
    const second = await addCustomer(t, o.token, next(), { name: 'Sue Second' });
    const created = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 5 * HOUR).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
      mode: 'all',
    });
    const opening = created.json().data;
    await reply(first.phone, o.number, 'YES');
    expect((await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data.status).toBe('filled');
    expect(await textsTo(second.phone)).toHaveLength(2); // the alert, then "it's been filled"

    const released = await call(t, o.token, 'POST', `/openings/${opening.id}/release`);
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().message).toBe(
      'The claim was released; the next customer in line is being offered the slot',
    );
    const detail = released.json().data;
    expect(detail).toMatchObject({ status: 'open', winner: null });
    const byName = Object.fromEntries(detail.offers.map((offer: { name: string }) => [offer.name, offer]));
    expect(byName['Wes Winner'].outcome).toBe('released');
    expect(byName['Sue Second'].outcome).toBe('texted');
    expect(await textsTo(second.phone)).toHaveLength(3); // offered again
    // The alert, "you got it", and (issue 39) that the slot is no longer his.
    expect(await textsTo(first.phone)).toHaveLength(3);

    // Wes backed out: his YES while the slot is open again does not take it back.
    await reply(first.phone, o.number, 'YES');
    expect((await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data.status).toBe('open');
    // Starter allows one alert a day: the release did not use another, and Sue can claim.
    const list = (await call(t, o.token, 'GET', '/openings')).json();
    expect(list.alertsToday.used).toBe(1);
    await reply(second.phone, o.number, 'YES');
    const filled = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(filled).toMatchObject({ status: 'filled', winner: { name: 'Sue Second' } });
    // Wes said YES before and backed out: a new YES from him does not take it back.
    await reply(first.phone, o.number, 'YES');
    expect((await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data.winner.name).toBe(
      'Sue Second',
    );
  });

  it('gives the slot to the next customer when the winner texts that they cannot come', async () => {
    const o = await owner(t, { plan: 'growth' });
    const first = await addCustomer(t, o.token, next(), { name: 'Cam Cancel' });
    const second = await addCustomer(t, o.token, next(), { name: 'Nell Next' });
    const third = await addCustomer(t, o.token, next(), { name: 'Tia Third' });
    const opening = (
      await call(t, o.token, 'POST', '/openings', {
        startsAt: new Date(t.clock.now().getTime() + 6 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
        mode: 'waves',
        waveSize: 1,
        claimWindowMinutes: 10,
      })
    ).json().data;
    await reply(first.phone, o.number, 'YES');
    expect(await textsTo(second.phone)).toHaveLength(0); // wave 2 never went
    await reply(first.phone, o.number, "So sorry, I can't make it after all");
    const texts = await textsTo(first.phone);
    expect(texts.at(-1)).toMatch(/No problem, we've let that slot go/);
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(detail.status).toBe('open');
    const outcome = Object.fromEntries(
      detail.offers.map((offer: { name: string; outcome: string }) => [offer.name, offer.outcome]),
    );
    expect(outcome).toEqual({ 'Cam Cancel': 'backed_out', 'Nell Next': 'texted', 'Tia Third': 'next_wave' });
    expect(await textsTo(second.phone)).toHaveLength(1);
    expect(await textsTo(third.phone)).toHaveLength(0);
    // The same words from a customer who holds no slot are only a message for the owner.
    await reply(third.phone, o.number, "I can't make it");
    expect((await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data.status).toBe('open');
  });

  it('after a release asks first those told it was filled, then those never asked (issue 39)', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, next(), { name: 'Ann Asked' });
    const ben = await addCustomer(t, o.token, next(), { name: 'Ben Booked' });
    const cat = await addCustomer(t, o.token, next(), { name: 'Cat Later' });
    const opening = (
      await call(t, o.token, 'POST', '/openings', {
        startsAt: new Date(t.clock.now().getTime() + 6 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
        mode: 'waves',
        waveSize: 1,
        claimWindowMinutes: 10,
      })
    ).json().data;
    t.clock.advance(10 * 60_000);
    await t.app.openingsWorker.runOnce();
    await reply(ben.phone, o.number, 'YES');
    expect(await textsTo(ann.phone)).toHaveLength(2); // the alert, then "it's been filled"
    expect(await textsTo(cat.phone)).toHaveLength(0);
    const released = (await call(t, o.token, 'POST', `/openings/${opening.id}/release`)).json().data;
    const outcome = Object.fromEntries(
      released.offers.map((offer: { name: string; outcome: string }) => [offer.name, offer.outcome]),
    );
    expect(outcome).toEqual({ 'Ann Asked': 'texted', 'Ben Booked': 'released', 'Cat Later': 'next_wave' });
    expect(await textsTo(ann.phone)).toHaveLength(3); // asked again first
    t.clock.advance(10 * 60_000);
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(cat.phone)).toHaveLength(1); // then Cat
  });

  it('refuses to release an opening nobody claimed, and another owner’s opening', async () => {
    const o = await owner(t, { plan: 'growth' });
    const other = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, next());
    const opening = (
      await call(t, o.token, 'POST', '/openings', {
        startsAt: new Date(t.clock.now().getTime() + 5 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
      })
    ).json().data;
    const open = await call(t, o.token, 'POST', `/openings/${opening.id}/release`);
    expect(open.statusCode).toBe(400);
    expect(open.json().message).toBe('This opening has no claim to release');
    expect((await call(t, other.token, 'POST', `/openings/${opening.id}/release`)).statusCode).toBe(404);
  });
});
