import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarConnections } from '../../db/schema.ts';
import { type Radicale, startRadicale } from '../../test/radicale.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { OURS_PROPERTY } from './calendar-event.ts';

/**
 * Issue 29: a claimed slot is booked back into the CalDAV calendar (radicale) with the customer's name and
 * phone, never read back as a cancellation, and removed again when the owner releases the claim.
 */
let t: TestApp;
let radicale: Radicale;
const account = { username: 'barber', password: 'app-password-9' };
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

/** Every object in the calendar, as the owner's phone would read them (PROPFIND + GET). */
async function calendarObjects(): Promise<string[]> {
  const listing = await fetch(calendarUrl(), { method: 'PROPFIND', headers: { ...basic, depth: '1' } });
  const hrefs = [...(await listing.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map(
    (match) => match[1]!,
  );
  return Promise.all(
    hrefs.map(async (href) => (await fetch(new URL(href, radicale.url), { headers: basic })).text()),
  );
}
const workerPass = () => {
  t.clock.advance(61_000);
  return t.app.calendarWorker.runOnce();
};

describe('a claimed slot in the calendar', () => {
  it('is booked with the customer’s name and phone, not read back as a cancellation, and removed on release', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ana = await addCustomer(t, o.token, 6101, { name: 'Ana Ruiz' });
    const connected = await call(t, o.token, 'POST', '/calendar/connections', {
      kind: 'caldav',
      url: radicale.url,
      ...account,
    });
    expect(connected.statusCode, connected.body).toBe(201);
    const startsAt = new Date(t.clock.now().getTime() + 5 * 3_600_000);
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: startsAt.toISOString(),
      durationMinutes: 30,
      service: 'Fade',
      mode: 'all',
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const openingId = opened.json().data.id as string;
    expect(await calendarObjects()).toEqual([]);

    await receiveText(t, ana.phone, o.number, 'YES');
    expect(await workerPass()).toMatchObject({ booked: 1 });
    const [booking] = await calendarObjects();
    expect(booking).toContain(`${OURS_PROPERTY}:${openingId}`);
    expect(booking).toContain('Fade');
    expect(booking).toContain('Ana Ruiz');
    expect(booking).toContain(ana.phone);
    // Read back by the next syncs: it is ours, so nothing is proposed.
    await workerPass();
    await workerPass();
    expect((await call(t, o.token, 'GET', '/calendar/proposals')).json().data).toEqual([]);

    expect((await call(t, o.token, 'POST', `/openings/${openingId}/release`)).statusCode).toBe(200);
    expect(await workerPass()).toMatchObject({ booked: 1 });
    expect(await calendarObjects()).toEqual([]);
    await workerPass();
    expect((await call(t, o.token, 'GET', '/calendar/proposals')).json().data).toEqual([]);
  });

  it('a calendar that cannot be reached gets the booking later: the wish is kept and tried again', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ben = await addCustomer(t, o.token, 6201, { name: 'Ben Cole' });
    const wrong = { ...account, username: 'nobody', password: 'x' };
    // Connected while the account worked; its password then changed at the provider.
    const connected = await call(t, o.token, 'POST', '/calendar/connections', {
      kind: 'caldav',
      url: radicale.url,
      ...account,
    });
    expect(connected.statusCode, connected.body).toBe(201);
    const id = connected.json().data.id as string;
    const [row] = await t.database.db
      .select()
      .from(calendarConnections)
      .where(eq(calendarConnections.id, id));
    await t.database.db
      .update(calendarConnections)
      .set({ account: wrong.username })
      .where(eq(calendarConnections.id, id));
    const opened = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 6 * 3_600_000).toISOString(),
      durationMinutes: 30,
      service: 'Trim',
      mode: 'all',
    });
    await receiveText(t, ben.phone, o.number, 'yes');
    expect(await workerPass()).toMatchObject({ booked: 0 });
    const before = (await calendarObjects()).length;
    await t.database.db
      .update(calendarConnections)
      .set({ account: row!.account })
      .where(eq(calendarConnections.id, id));
    // The retry waits a minute after the failed try, then writes it.
    expect(await workerPass()).toMatchObject({ booked: 1 });
    const after = await calendarObjects();
    expect(after).toHaveLength(before + 1);
    expect(after.some((object) => object.includes(opened.json().data.id))).toBe(true);
  });
});
