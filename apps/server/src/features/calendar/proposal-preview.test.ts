import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../db/schema.ts';
import { type Radicale, startRadicale } from '../../test/radicale.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { icsFeed } from './ics-feed.test-helpers.ts';

/**
 * Issue 39, item 3: "Text the waitlist" on a calendar's cancellation first shows the same "who gets the text"
 * preview as a slot typed by hand, with the service, stylist and price the owner's rules (and the event's
 * title, for the stylist) give; only the owner's confirmation texts anyone; the booking written back names the
 * stylist. A CalDAV calendar (radicale) holds "Cut – Jess"; the owner's one rule says "cut" is Women's cut.
 */
let t: TestApp;
let radicale: Radicale;
const account = { username: 'salon', password: 'app-password-39' };
const basic = {
  authorization: `Basic ${Buffer.from(`${account.username}:${account.password}`).toString('base64')}`,
};
const calendarUrl = () => `${radicale.url}/${account.username}/chairs/`;

beforeAll(async () => {
  radicale = await startRadicale({ users: [account] });
  t = await createTestApp({ env: { CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  expect((await fetch(calendarUrl(), { method: 'MKCALENDAR', headers: basic })).status).toBe(201);
});
afterAll(async () => {
  await t?.close();
  await radicale?.stop();
});

const workerPass = () => {
  t.clock.advance(61_000);
  return t.app.calendarWorker.runOnce();
};
async function calendarObjects(): Promise<string[]> {
  const listing = await fetch(calendarUrl(), { method: 'PROPFIND', headers: { ...basic, depth: '1' } });
  const hrefs = [...(await listing.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map(
    (match) => match[1]!,
  );
  return Promise.all(
    hrefs.map(async (href) => (await fetch(new URL(href, radicale.url), { headers: basic })).text()),
  );
}
const textsTo = async (userId: string) =>
  t.database.db
    .select({ body: messages.body, customerId: messages.customerId })
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.direction, 'out')));

describe('a calendar cancellation', () => {
  it('opens through the preview with the rule’s service, the title’s stylist and the service’s price; the booking names the stylist', async () => {
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    const cut = (
      await call(t, o.token, 'POST', '/services', {
        name: 'Women’s cut',
        durationMinutes: 30,
        priceCents: 6500,
      })
    ).json().data.id as string;
    const jess = (await call(t, o.token, 'POST', '/staff', { name: 'Jess' })).json().data.id as string;
    const priya = (await call(t, o.token, 'POST', '/staff', { name: 'Priya' })).json().data.id as string;
    const camila = await addCustomer(t, o.token, 3901, { name: 'Camila Reyes', staffId: jess });
    await addCustomer(t, o.token, 3902, { name: 'Leo Park', staffId: priya });

    const start = new Date(t.clock.now().getTime() + 26 * 3_600_000);
    const event = `${calendarUrl()}cut-jess.ics`;
    const put = await fetch(event, {
      method: 'PUT',
      headers: { ...basic, 'content-type': 'text/calendar' },
      body: icsFeed({ uid: 'cut-jess', title: 'Cut – Jess', start }),
    });
    expect(put.status).toBeLessThan(300);
    const connected = await call(t, o.token, 'POST', '/calendar/connections', {
      kind: 'caldav',
      url: radicale.url,
      ...account,
    });
    expect(connected.statusCode, connected.body).toBe(201);
    const rules = [{ contains: 'cut', serviceId: cut }];
    const saved = await call(t, o.token, 'PATCH', `/calendar/connections/${connected.json().data.id}`, {
      rules,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    await workerPass();
    expect((await fetch(event, { method: 'DELETE', headers: basic })).status).toBeLessThan(300);
    expect(await workerPass()).toMatchObject({ proposed: 1 });
    const [proposal] = (await call(t, o.token, 'GET', '/calendar/proposals')).json().data;

    // The preview: who gets the text and what it offers; nothing sent, the proposal still waiting.
    const preview = await call(t, o.token, 'POST', `/calendar/proposals/${proposal.id}/preview`);
    expect(preview.statusCode, preview.body).toBe(200);
    const plan = preview.json().data;
    expect(plan.slot).toEqual({ service: 'Women’s cut', staffName: 'Jess', priceCents: 6500 });
    expect(plan.offers.map((offer: { name: string }) => offer.name)).toEqual(['Camila Reyes']);
    expect(await textsTo(o.id)).toEqual([]);
    expect((await call(t, o.token, 'GET', '/calendar/proposals')).json().data).toHaveLength(1);

    // Confirmed: the slot opens as the preview said, and Camila (who asked for Jess) is texted.
    const opened = await call(t, o.token, 'POST', `/calendar/proposals/${proposal.id}/open`);
    expect(opened.statusCode, opened.body).toBe(200);
    const openingId = opened.json().data.openingId as string;
    const opening = (await call(t, o.token, 'GET', `/openings/${openingId}`)).json().data;
    expect(opening).toMatchObject({
      service: 'Women’s cut',
      serviceId: cut,
      staffId: jess,
      priceCents: 6500,
    });
    expect((await textsTo(o.id)).map((text) => text.customerId)).toEqual([camila.id]);

    await receiveText(t, camila.phone, o.number, 'YES');
    expect(await workerPass()).toMatchObject({ booked: 1 });
    const booking = (await calendarObjects()).find((object) => object.includes(openingId));
    expect(booking?.replace(/\r\n /g, '')).toContain('Women’s cut with Jess – Camila Reyes');
    const earnings = (await call(t, o.token, 'GET', '/dashboard/earnings')).json().data;
    expect(earnings.revenueRecoveredCents).toBe(6500);
  });

  it('an unknown proposal has no preview', async () => {
    const o = await owner(t, { plan: 'growth' });
    const answer = await call(t, o.token, 'POST', `/calendar/proposals/${crypto.randomUUID()}/preview`);
    expect(answer.statusCode).toBe(404);
  });
});
