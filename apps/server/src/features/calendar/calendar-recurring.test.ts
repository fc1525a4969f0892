import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Radicale, startRadicale } from '../../test/radicale.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 29 (CalDAV, radicale): one cancelled occurrence of a weekly appointment is one proposal for that day
 * only; two instances reading at once read the calendar once and propose the slot once.
 */
let t: TestApp;
let radicale: Radicale;
const accounts = [0, 1].map((n) => ({ username: `weekly${n}`, password: `app-password-w${n}` }));
const basic = (who: (typeof accounts)[number]) => ({
  authorization: `Basic ${Buffer.from(`${who.username}:${who.password}`).toString('base64')}`,
});

beforeAll(async () => {
  radicale = await startRadicale({ users: accounts });
  t = await createTestApp({ env: { CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true' } });
});
afterAll(async () => {
  await t?.close();
  await radicale?.stop();
});

const stamp = (instant: Date) => instant.toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
async function put(who: (typeof accounts)[number], uid: string, lines: string[]) {
  const calendar = `${radicale.url}/${who.username}/week/`;
  const ics = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//phone//EN', ...lines, 'END:VCALENDAR', ''].join(
    '\r\n',
  );
  const response = await fetch(`${calendar}${uid}.ics`, {
    method: 'PUT',
    headers: { ...basic(who), 'content-type': 'text/calendar' },
    body: ics,
  });
  expect(response.ok).toBe(true);
}
async function connect(who: (typeof accounts)[number]) {
  expect(
    (await fetch(`${radicale.url}/${who.username}/week/`, { method: 'MKCALENDAR', headers: basic(who) }))
      .status,
  ).toBe(201);
  const o = await owner(t, { plan: 'growth' });
  await addCustomer(t, o.token, 7101 + accounts.indexOf(who));
  return o;
}
const weekly = (uid: string, first: Date, ...extra: string[]) => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  `DTSTAMP:${stamp(first)}`,
  `DTSTART:${stamp(first)}`,
  'DURATION:PT1H',
  'SUMMARY:Colour – Mia',
  'RRULE:FREQ=DAILY;COUNT=5',
  ...extra,
  'END:VEVENT',
];
const waiting = async (token: string) =>
  (await call(t, token, 'GET', '/calendar/proposals')).json().data as { title: string; startsAt: string }[];

describe('a recurring appointment', () => {
  it('one cancelled occurrence (an overridden instance) is one proposal, for that day only', async () => {
    const who = accounts[0]!;
    const o = await connect(who);
    const first = new Date(t.clock.now().getTime() + 20 * 3_600_000);
    await put(who, 'daily-mia', weekly('daily-mia', first));
    expect(
      (await call(t, o.token, 'POST', '/calendar/connections', { kind: 'caldav', url: radicale.url, ...who }))
        .statusCode,
    ).toBe(201);
    const third = new Date(first.getTime() + 2 * 86_400_000);
    await put(who, 'daily-mia', [
      ...weekly('daily-mia', first),
      'BEGIN:VEVENT',
      'UID:daily-mia',
      `DTSTAMP:${stamp(third)}`,
      `RECURRENCE-ID:${stamp(third)}`,
      `DTSTART:${stamp(third)}`,
      'DURATION:PT1H',
      'SUMMARY:Colour – Mia',
      'STATUS:CANCELLED',
      'END:VEVENT',
    ]);
    t.clock.advance(61_000);
    await t.app.calendarWorker.runOnce();
    expect(await waiting(o.token)).toEqual([
      expect.objectContaining({ title: 'Colour – Mia', startsAt: third.toISOString() }),
    ]);
  });
});

describe('two instances', () => {
  it('reading at once, read the calendar once and propose the slot once', async () => {
    const who = accounts[1]!;
    const o = await connect(who);
    const start = new Date(t.clock.now().getTime() + 30 * 3_600_000);
    await put(who, 'cut-zoe', [
      'BEGIN:VEVENT',
      'UID:cut-zoe',
      `DTSTAMP:${stamp(start)}`,
      `DTSTART:${stamp(start)}`,
      'DURATION:PT30M',
      'SUMMARY:Cut – Zoe',
      'END:VEVENT',
    ]);
    expect(
      (await call(t, o.token, 'POST', '/calendar/connections', { kind: 'caldav', url: radicale.url, ...who }))
        .statusCode,
    ).toBe(201);
    const deleted = await fetch(`${radicale.url}/${who.username}/week/cut-zoe.ics`, {
      method: 'DELETE',
      headers: basic(who),
    });
    expect(deleted.ok).toBe(true);
    t.clock.advance(61_000);
    // Two instances' passes at the same moment (their own workers), on the same database.
    const [one, two] = await Promise.all([
      t.app.services.calendar.syncDue(),
      t.app.services.calendar.syncDue(),
    ]);
    expect(one.synced + two.synced).toBe(2); // both connections of this file, each read by one instance
    expect(one.proposed + two.proposed).toBe(1);
    expect(await waiting(o.token)).toMatchObject([{ title: 'Cut – Zoe' }]);
  });
});
