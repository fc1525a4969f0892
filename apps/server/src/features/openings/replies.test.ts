import { customerWords, renderTemplate, TEMPLATE_SAMPLE_VALUES, templateCost } from '@waitlist/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, offers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText, textBodiesTo } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

/** Issue 15: no reply falls through. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const reply = (from: string, to: string, text: string) => receiveText(t, from, to, text);
const textsTo = (phone: string) => textBodiesTo(t, phone);
async function openSlot(token: string, extra: object = {}) {
  const response = await call(t, token, 'POST', '/openings', {
    startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
    ...extra,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.id as string;
}

describe('claim words', () => {
  it('"Yes please!" claims the slot and gets the booking text', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 501, { name: 'Ann Lee' });
    const openingId = await openSlot(o.token);
    const result = await reply(ann.phone, o.number, 'Yes please!');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail).toMatchObject({ status: 'filled', winner: { id: ann.id } });
    const texts = await textsTo(ann.phone);
    expect(texts.at(-1)).toMatch(/^You got it, Ann!/);
  });

  it.each(['y', 'Yep', 'OK I’ll take it'])('%j claims too', async (words) => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 511, { name: 'Ann Lee' });
    const openingId = await openSlot(o.token);
    await reply(ann.phone, o.number, words);
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail.winner?.id).toBe(ann.id);
  });
});

describe('a free-text reply', () => {
  it('reaches the owner, claims nothing, and gets one automatic answer a day', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 521, { name: 'Ann Lee' });
    const openingId = await openSlot(o.token);
    const result = await reply(ann.phone, o.number, 'Can I come at 4 instead?');
    expect(result).toMatchObject({ outcome: 'received', action: 'reply' });
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail.status).toBe('open');
    const business = (await call(t, o.token, 'GET', '/auth/me')).json().data.businessName as string;
    const auto = customerWords().texts.autoAnswer(business);
    expect((await textsTo(ann.phone)).filter((body) => body === auto)).toHaveLength(1);

    // The owner reads it in the customer's conversation.
    const thread = (await call(t, o.token, 'GET', `/waitlist/${ann.id}/messages`)).json();
    expect(JSON.stringify(thread)).toContain('Can I come at 4 instead?');

    // A second message the same day: stored, no second automatic answer.
    await reply(ann.phone, o.number, 'or 5?');
    expect((await textsTo(ann.phone)).filter((body) => body === auto)).toHaveLength(1);
    // The next day it may answer again.
    t.clock.advance(25 * 3_600_000);
    try {
      await reply(ann.phone, o.number, 'hello again');
      expect((await textsTo(ann.phone)).filter((body) => body === auto)).toHaveLength(2);
    } finally {
      t.clock.advance(-25 * 3_600_000);
    }
  });

  it('from an opted-out customer gets nothing back', async () => {
    const o = await owner(t, { plan: 'growth' });
    const bob = await addCustomer(t, o.token, 531, { name: 'Bob Stone' });
    await reply(bob.phone, o.number, 'STOP');
    const before = (await textsTo(bob.phone)).length;
    await reply(bob.phone, o.number, 'why did I get this');
    expect(await textsTo(bob.phone)).toHaveLength(before);
  });
});

describe('when a slot is filled', () => {
  it('tells every other texted customer once, never an opted-out one, and the owner sees who was told', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 541, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, 542, { name: 'Bob Stone' });
    const cara = await addCustomer(t, o.token, 543, { name: 'Cara Diaz' });
    const dan = await addCustomer(t, o.token, 544, { name: 'Dan Wu' });
    const openingId = await openSlot(o.token);
    await reply(dan.phone, o.number, 'STOP');
    await reply(bob.phone, o.number, 'yeah!');

    const filled = (name: string) =>
      renderTemplate(customerWords().templates.already_filled, {
        name,
        business: 'Bella Salon',
        time: '',
      }).split(',')[0];
    const annTexts = await textsTo(ann.phone);
    const caraTexts = await textsTo(cara.phone);
    expect(annTexts).toHaveLength(2);
    expect(annTexts[1]).toMatch(/^Sorry Ann.*has already been filled/);
    expect(annTexts[1]!.startsWith(filled('Ann')!)).toBe(true);
    expect(caraTexts[1]).toMatch(/^Sorry Cara.*has already been filled/);
    // Dan replied STOP: only the alert and the STOP confirmation, nothing about the slot.
    expect((await textsTo(dan.phone)).some((body) => /already been filled/.test(body))).toBe(false);

    // A late YES from someone already told gets nothing more: one text per customer per opening.
    await reply(ann.phone, o.number, 'YES');
    expect(await textsTo(ann.phone)).toHaveLength(2);

    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    const outcomes = Object.fromEntries(
      detail.offers.map((x: { name: string; outcome: string }) => [x.name, x.outcome]),
    );
    expect(outcomes).toEqual({
      'Ann Lee': 'told_filled',
      'Bob Stone': 'claimed',
      'Cara Diaz': 'told_filled',
      'Dan Wu': 'opted_out',
    });
    const rows = await t.database.db.select().from(offers).where(eq(offers.openingId, openingId));
    expect(rows.filter((row) => row.toldAt !== null)).toHaveLength(2);
  });

  it('does not text customers of waves that were never sent; they show as not texted', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, 551, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, 552, { name: 'Bob Stone' });
    const openingId = await openSlot(o.token, { mode: 'waves', waveSize: 1, claimWindowMinutes: 10 });
    await reply(ann.phone, o.number, 'yes');
    expect(await textsTo(bob.phone)).toHaveLength(0);
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail.offers.map((x: { outcome: string }) => x.outcome)).toEqual(['claimed', 'not_texted']);
  });

  it('an expired alert shows who never answered', async () => {
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, 561, { name: 'Ann Lee' });
    const openingId = await openSlot(o.token);
    t.clock.advance(4 * 3_600_000);
    try {
      await t.app.openingsWorker.runOnce();
    } finally {
      t.clock.advance(-4 * 3_600_000);
    }
    const detail = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(detail.status).toBe('expired');
    expect(detail.offers[0].outcome).toBe('no_answer');
  });
});

describe('segments: what the editor counts is what is sent', () => {
  it('an alert the editor counts as 2 segments is stored as 2 segments for each customer', async () => {
    const o = await owner(t, { plan: 'growth' });
    const body =
      'Hi {name}! Great news from {business}: a spot just opened on {time}. Reply YES to claim it, first to reply gets it.';
    const saved = await call(t, o.token, 'PUT', '/message-templates/cancellation_alert', { body });
    expect(saved.statusCode, saved.body).toBe(200);
    const ann = await addCustomer(t, o.token, 571, { name: 'Alexandra Stone' });
    const me = (await call(t, o.token, 'GET', '/auth/me')).json().data;
    // The editor's count: the business's real name, the long sample, the first-text footer.
    const editor = templateCost(
      renderTemplate(body, { ...TEMPLATE_SAMPLE_VALUES, business: me.businessName }),
      {
        waitingCustomers: 1,
      },
    );
    expect(editor.segments).toBe(2);
    expect(editor.alertTexts).toBe(2);
    await openSlot(o.token, { service: 'Deep conditioning treatment and blow-dry' });
    const [sent] = await t.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.toNumber, ann.phone), eq(messages.direction, 'out')));
    expect(sent!.body).toMatch(/Reply STOP to opt out$/);
    expect(sent!.segments).toBe(editor.segments);
  });
});
