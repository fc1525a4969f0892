import { customerWords, waitlistMessages } from '@waitlist/contract';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, messages, offers, openings, users } from '../../db/schema.ts';
import { createTestApp, latestEmailTo, type TestApp } from '../../test/test-app.ts';
import {
  addCustomer,
  call,
  customerPhone,
  importCustomers,
  owner,
  textsTo as textsOf,
} from '../waitlist/waitlist.test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();
let inboundCounter = 0;
function reply(from: string, to: string, text: string) {
  inboundCounter += 1;
  return t.app.services.conversation.receiveInbound({
    from,
    to,
    text,
    providerMessageId: `in-${Date.now()}-${inboundCounter}`,
  });
}
const textsTo = (phone: string) => textsOf(t, phone);
async function openSlot(token: string, extra: object = {}) {
  const response = await call(t, token, 'POST', '/openings', {
    startsAt: inHours(3),
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
    ...extra,
  });
  return response;
}

describe('openings: cancellation alerts', () => {
  it('texts the waiting, opted-in customers whose preferences fit, in waitlist order', async () => {
    const o = await owner(t, { plan: 'growth' });
    const a = await addCustomer(t, o.token, 101, { name: 'Ann Lee' });
    const b = await addCustomer(t, o.token, 102, { name: 'Bob Stone' });
    const c = await addCustomer(t, o.token, 103, { name: 'Cara Diaz' });
    const d = await addCustomer(t, o.token, 104, { name: 'Dan Wu' });
    await call(t, o.token, 'POST', '/waitlist/reorder', { ids: [c.id, a.id, b.id, d.id] });
    // Bob only comes on Sundays; Dan opted out.
    await call(t, o.token, 'PATCH', `/waitlist/${b.id}`, {
      preferences: [{ days: [0], from: '09:00', to: '17:00' }],
    });
    await t.database.db.update(customers).set({ optedOut: true }).where(eq(customers.id, d.id));

    // Monday 2026-11-23 15:00 in New York (the default time zone).
    const response = await openSlot(o.token, { startsAt: '2026-11-23T15:00' });
    expect(response.statusCode, response.body).toBe(201);
    const opening = response.json().data;
    expect(opening).toMatchObject({
      status: 'open',
      mode: 'all',
      startsAt: '2026-11-23T20:00:00.000Z',
      service: 'Haircut',
      priceCents: 6500,
      localDate: '2026-11-23',
      currentWave: 1,
      winner: null,
      stats: { offered: 2, sent: 0, delivered: 0, replies: 0 },
    });
    expect(opening.offers.map((x: { name: string; status: string }) => [x.name, x.status])).toEqual([
      ['Cara Diaz', 'sent'],
      ['Ann Lee', 'sent'],
    ]);
    const alerts = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.openingId, opening.id))
      .orderBy(asc(messages.seq));
    expect(alerts.map((m) => m.toNumber)).toEqual([c.phone, a.phone]);
    expect(alerts[0]!.body).toBe(
      `Hi Cara, a spot just opened at Bella Salon: Mon, Nov 23 at 3:00 PM (Haircut). Reply YES to claim it. First to reply gets it.\nReply STOP to opt out`,
    );
    expect((await call(t, o.token, 'GET', '/waitlist?status=offered')).json().data).toHaveLength(2);

    // Delivered texts show in the opening's stats once the outbox hands them over (5 a second at most).
    await t.app.outbox.drain();
    t.clock.advance(1000);
    await t.app.outbox.drain();
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(detail.stats.sent).toBe(2);

    const list = (await call(t, o.token, 'GET', '/openings')).json();
    expect(list.alertsToday).toMatchObject({ used: 1, limit: 2 });
    expect(list.data).toHaveLength(1);
  });

  it('refuses an alert nobody can receive, a time in the past, and waves without their parameters', async () => {
    const o = await owner(t);
    expect((await openSlot(o.token)).json().message).toBe(waitlistMessages.noEligibleCustomers);
    await addCustomer(t, o.token, 1);
    expect((await openSlot(o.token, { startsAt: inHours(-1) })).json().message).toBe(
      waitlistMessages.openingInPast,
    );
    expect((await openSlot(o.token, { startsAt: 'soon' })).statusCode).toBe(400);
    expect((await openSlot(o.token, { mode: 'waves' })).statusCode).toBe(400);
    // No text from a number that is not verified: nothing is opened, no alert is used.
    await t.database.db.update(users).set({ plivoNumberStatus: 'failed' }).where(eq(users.id, o.id));
    const unverified = await openSlot(o.token);
    expect(unverified.statusCode).toBe(403);
    expect(unverified.json().message).toMatch(/failed verification/);
    expect((await call(t, o.token, 'GET', '/openings')).json()).toMatchObject({
      data: [],
      alertsToday: { used: 0 },
    });
  });

  it('gives the slot to exactly one of 20 simultaneous YES replies; the 19 others are told it is filled', async () => {
    const o = await owner(t, { plan: 'growth' });
    await importCustomers(t, o.token, 201, 20);
    const created = await openSlot(o.token);
    expect(created.statusCode, created.body).toBe(201);
    const openingId = created.json().data.id;
    const phones = Array.from({ length: 20 }, (_, i) => customerPhone(201 + i));
    const answers = ['YES', 'yes', ' Yes ', 'yes!', 'Yes.', 'YES!!'];
    const results = await Promise.all(
      phones.map((phone, i) => reply(phone, o.number, answers[i % answers.length]!)),
    );
    expect(results.every((r) => r.outcome === 'received')).toBe(true);

    const [opening] = await t.database.db.select().from(openings).where(eq(openings.id, openingId));
    expect(opening!.status).toBe('filled');
    const booked = await t.database.db
      .select()
      .from(customers)
      .where(and(eq(customers.userId, o.id), eq(customers.status, 'booked')));
    expect(booked).toHaveLength(1);
    expect(opening!.winnerCustomerId).toBe(booked[0]!.id);
    const offerRows = await t.database.db.select().from(offers).where(eq(offers.openingId, openingId));
    expect(offerRows.filter((x) => x.status === 'won')).toHaveLength(1);
    expect(offerRows.filter((x) => x.status === 'lost')).toHaveLength(19);
    const waiting = await t.database.db
      .select()
      .from(customers)
      .where(and(eq(customers.userId, o.id), eq(customers.status, 'waiting')));
    expect(waiting).toHaveLength(19);

    const firstName = booked[0]!.name.split(' ')[0]!;
    let filledTexts = 0;
    for (const phone of phones) {
      const texts = await textsTo(phone);
      expect(texts).toHaveLength(2);
      if (phone === booked[0]!.phone) {
        expect(texts[1]).toBe(
          `You got it, ${firstName}! You're booked at Bella Salon for ${texts[1]!.split('for ')[1]}`,
        );
        expect(texts[1]).toMatch(/^You got it/);
      } else {
        expect(texts[1]).toMatch(/^Sorry .*has already been filled/);
        filledTexts += 1;
      }
    }
    expect(filledTexts).toBe(19);

    // The owner is told by email, through the outbox.
    const email = await latestEmailTo(t, o.email);
    expect(email?.subject).toMatch(/^Filled: Haircut/);
    expect(email?.text).toContain(booked[0]!.name);

    // A later YES gets the polite answer too; the winner saying YES again gets nothing more.
    await reply(phones.find((p) => p !== booked[0]!.phone)!, o.number, 'yes');
    await reply(booked[0]!.phone, o.number, 'YES');
    expect(await textsTo(booked[0]!.phone)).toHaveLength(2);

    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail).toMatchObject({ status: 'filled', winner: { id: booked[0]!.id }, stats: { replies: 22 } });
    const earnings = (await call(t, o.token, 'GET', '/dashboard/earnings')).json().data;
    expect(earnings).toMatchObject({
      revenueRecoveredCents: 6500,
      alertsSent: 1,
      fillRate: 1,
      avgTimeToFillMinutes: 0,
    });
  });

  it('shows a customer who replied STOP as opted out on the opening, not as filled by another', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 151, { name: 'Ann Stop' });
    const bob = await addCustomer(t, o.token, 152, { name: 'Bob Yes' });
    const created = await openSlot(o.token);
    expect(created.statusCode, created.body).toBe(201);
    const openingId = created.json().data.id;
    await reply(ann.phone, o.number, 'STOP');
    await reply(bob.phone, o.number, 'YES');
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail.status).toBe('filled');
    expect(
      detail.offers.map((x: { name: string; status: string; optedOut: boolean }) => [
        x.name,
        x.status,
        x.optedOut,
      ]),
    ).toEqual([
      ['Ann Stop', 'lost', true],
      ['Bob Yes', 'won', false],
    ]);
  });

  it('sends waves: the next wave only after the claim window passes without a claim', async () => {
    const o = await owner(t, { plan: 'growth' });
    await importCustomers(t, o.token, 301, 5);
    const created = await openSlot(o.token, { mode: 'waves', waveSize: 2, claimWindowMinutes: 10 });
    expect(created.statusCode, created.body).toBe(201);
    const opening = created.json().data;
    expect(opening.offers.map((x: { wave: number; status: string }) => `${x.wave}:${x.status}`)).toEqual([
      '1:sent',
      '1:sent',
      '2:pending',
      '2:pending',
      '3:pending',
    ]);
    expect(opening.nextWaveAt).toBe(new Date(t.clock.now().getTime() + 600_000).toISOString());

    t.clock.advance(9 * 60_000);
    expect((await t.app.openingsWorker.runOnce()).wavesSent).toBe(0);
    expect(await textsTo(customerPhone(303))).toHaveLength(0);

    t.clock.advance(60_000);
    expect((await t.app.openingsWorker.runOnce()).wavesSent).toBe(1);
    expect(await textsTo(customerPhone(303))).toHaveLength(1);
    expect(await textsTo(customerPhone(304))).toHaveLength(1);
    expect(await textsTo(customerPhone(305))).toHaveLength(0);

    // Someone from wave 2 claims: wave 3 never goes out.
    await reply(customerPhone(304), o.number, 'Yes');
    t.clock.advance(30 * 60_000);
    await t.app.openingsWorker.runOnce();
    expect(await textsTo(customerPhone(305))).toHaveLength(0);
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(detail).toMatchObject({ status: 'filled', currentWave: 2, nextWaveAt: null });
    expect(detail.offers.map((x: { status: string }) => x.status)).toEqual([
      'lost',
      'lost',
      'lost',
      'won',
      'skipped',
    ]);
  });

  it('expires an opening at its start time, and can be closed by hand', async () => {
    const o = await owner(t, { plan: 'growth' });
    await importCustomers(t, o.token, 401, 2);
    const first = (await openSlot(o.token, { startsAt: inHours(1) })).json().data;
    t.clock.advance(3_600_000);
    expect((await t.app.openingsWorker.runOnce()).expired).toBeGreaterThanOrEqual(1);
    const expired = (await call(t, o.token, 'GET', `/openings/${first.id}`)).json().data;
    expect(expired.status).toBe('expired');
    expect((await call(t, o.token, 'GET', '/waitlist?status=waiting')).json().data).toHaveLength(2);
    await reply(customerPhone(401), o.number, 'YES');
    expect((await textsTo(customerPhone(401))).at(-1)).toMatch(/already been filled/);

    const second = (await openSlot(o.token)).json().data;
    const closed = await call(t, o.token, 'POST', `/openings/${second.id}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().data.status).toBe('closed');
    expect((await call(t, o.token, 'POST', `/openings/${second.id}/close`)).json().message).toBe(
      waitlistMessages.openingNotOpen,
    );
    expect((await call(t, o.token, 'GET', '/dashboard/earnings')).json().data).toMatchObject({
      revenueRecoveredCents: 0,
      alertsSent: 2,
      fillRate: 0,
      avgTimeToFillMinutes: null,
    });
  });

  it('uses the owner’s templates for alerts', async () => {
    const o = await owner(t);
    await addCustomer(t, o.token, 501, { name: 'Eve Park' });
    await call(t, o.token, 'PUT', '/message-templates/cancellation_alert', {
      body: '{business}: {time} is free, {name}! YES?',
    });
    const created = await openSlot(o.token, { startsAt: '2026-11-24T09:30', service: 'Color' });
    expect(created.statusCode, created.body).toBe(201);
    expect((await textsTo(customerPhone(501)))[0]).toBe(
      'Bella Salon: Tue, Nov 24 at 9:30 AM (Color) is free, Eve! YES?\nReply STOP to opt out',
    );
    expect(customerWords().templates.cancellation_alert).toContain('{time}');
  });
});

describe('alerts per day in the business time zone', () => {
  let tz: TestApp;
  beforeAll(async () => {
    // 15:30 on Monday in Los Angeles, 23:30 UTC.
    tz = await createTestApp({ startAt: new Date('2026-11-23T23:30:00Z') });
  });
  afterAll(async () => {
    await tz.close();
  });
  const open = (token: string, hours = 20) =>
    call(tz, token, 'POST', '/openings', {
      startsAt: new Date(tz.clock.now().getTime() + hours * 3_600_000).toISOString(),
      durationMinutes: 30,
      service: 'Massage',
      mode: 'all',
    });

  it('counts per local day: a trial gets 1, the next is refused until local midnight, not UTC midnight', async () => {
    const o = await owner(tz, { timeZone: 'America/Los_Angeles' });
    await addCustomer(tz, o.token, 1);
    const first = await open(o.token);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.localDate).toBe('2026-11-23');

    // 00:30 UTC on the 24th is still 16:30 on the 23rd in Los Angeles.
    tz.clock.advance(60 * 60_000);
    const refused = await open(o.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(
      waitlistMessages.alertsLimit('free_trial', 1, 'Tue, Nov 24, 12:00 AM PST'),
    );
    expect(refused.json().message).toContain('resets at Tue, Nov 24, 12:00 AM PST');
    const list = (await call(tz, o.token, 'GET', '/openings')).json();
    expect(list.alertsToday).toEqual({ used: 1, limit: 1, resetsAt: '2026-11-24T08:00:00.000Z' });
    expect(list.timeZone).toBe('America/Los_Angeles');

    // A business in New York started its new day at 05:00 UTC; Los Angeles at 08:00 UTC.
    tz.clock.advance(7 * 60 * 60_000 + 35 * 60_000); // 08:05 UTC = 00:05 in Los Angeles
    const nextDay = await open(o.token);
    expect(nextDay.statusCode, nextDay.body).toBe(201);
    expect(nextDay.json().data.localDate).toBe('2026-11-24');
  });

  it('gives Growth 2 alerts a day', async () => {
    const o = await owner(tz, { plan: 'growth', timeZone: 'America/Los_Angeles' });
    await addCustomer(tz, o.token, 2);
    expect((await open(o.token)).statusCode).toBe(201);
    expect((await open(o.token, 21)).statusCode).toBe(201);
    const third = await open(o.token, 22);
    expect(third.statusCode).toBe(403);
    expect(third.json().message).toMatch(
      /Growth Plan allows 2 cancellation alerts per day\. The count resets at /,
    );
  });
});
