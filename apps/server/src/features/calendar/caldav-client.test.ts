import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Radicale, startRadicale } from '../../test/radicale.ts';
import { type CalDavClient, CalDavError, type CalDavObject, connectCalDav } from './caldav-client.ts';
import type { CalendarEvent } from './calendar-event.ts';
import { detectChanges } from './changes.ts';
import { parseIcs, toIcs } from './ics.ts';

// Against Debian's radicale (scripts/test.mjs installs it): a real CalDAV server, sync-collection included.
let radicale: Radicale;
const owner = { username: 'owner', password: 'app-password-1' };
const auth = {
  authorization: `Basic ${Buffer.from(`${owner.username}:${owner.password}`).toString('base64')}`,
};

beforeAll(async () => {
  radicale = await startRadicale({ users: [owner] });
});
afterAll(async () => {
  await radicale?.stop();
});

const connect = (options: { forceEtagSync?: boolean } = {}) =>
  connectCalDav({ serverUrl: radicale.url, ...owner, ...options });

let calendarCount = 0;
/** A fresh calendar per test, made the way the owner's own app would (MKCALENDAR). */
async function newCalendar(): Promise<string> {
  calendarCount += 1;
  const url = `${radicale.url}/${owner.username}/calendar-${calendarCount}/`;
  const response = await fetch(url, { method: 'MKCALENDAR', headers: auth });
  expect(response.status).toBe(201);
  return url;
}

const vevent = (uid: string, start: string, ...lines: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//owner//phone//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20300101T000000Z',
    `DTSTART:${start}`,
    'DURATION:PT1H',
    ...lines,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/** The owner changing their calendar from another app (their phone). */
async function ownerPuts(calendarUrl: string, name: string, ics: string): Promise<void> {
  const response = await fetch(`${calendarUrl}${name}.ics`, {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'text/calendar; charset=utf-8' },
    body: ics,
  });
  expect(response.ok).toBe(true);
}
async function ownerDeletes(calendarUrl: string, name: string): Promise<void> {
  expect((await fetch(`${calendarUrl}${name}.ics`, { method: 'DELETE', headers: auth })).ok).toBe(true);
}

const NOW = new Date('2030-01-07T08:00:00Z');
const window = { from: NOW, to: new Date('2030-02-07T00:00:00Z') };
const eventsOf = (objects: Iterable<CalDavObject>): CalendarEvent[] =>
  [...objects].flatMap((object) => parseIcs(object.data, window));
const name = (href: string) => href.split('/').at(-1);

/** Three events: a one-off cut, a booked colour, and a daily standing appointment. */
async function seed(calendarUrl: string): Promise<void> {
  await ownerPuts(calendarUrl, 'cut', vevent('cut', '20300107T150000Z', 'SUMMARY:Cut – Priya'));
  await ownerPuts(
    calendarUrl,
    'colour',
    vevent(
      'colour',
      '20300108T150000Z',
      'SUMMARY:Colour',
      'ATTENDEE;PARTSTAT=ACCEPTED:mailto:ana@example.test',
    ),
  );
  await ownerPuts(
    calendarUrl,
    'standing',
    vevent('standing', '20300107T100000Z', 'RRULE:FREQ=DAILY;COUNT=5', 'SUMMARY:Standing'),
  );
}

/** Deletes the cut, cancels one occurrence of the standing appointment, and adds a lunch. */
async function ownerCancels(calendarUrl: string): Promise<void> {
  await ownerDeletes(calendarUrl, 'cut');
  await ownerPuts(
    calendarUrl,
    'standing',
    [
      vevent('standing', '20300107T100000Z', 'RRULE:FREQ=DAILY;COUNT=5', 'SUMMARY:Standing').replace(
        /END:VCALENDAR\r\n$/,
        '',
      ),
      'BEGIN:VEVENT',
      'UID:standing',
      'DTSTAMP:20300101T000000Z',
      'RECURRENCE-ID:20300109T100000Z',
      'DTSTART:20300109T100000Z',
      'DURATION:PT1H',
      'STATUS:CANCELLED',
      'SUMMARY:Standing',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  );
  await ownerPuts(calendarUrl, 'lunch', vevent('lunch', '20300108T120000Z', 'SUMMARY:Lunch'));
}

/** Applies a sync's changes to the objects kept from before, the way the service will. */
function apply(objects: Map<string, CalDavObject>, changes: { changed: CalDavObject[]; deleted: string[] }) {
  const next = new Map(objects);
  for (const href of changes.deleted) next.delete(href);
  for (const object of changes.changed) next.set(object.href, object);
  return next;
}

async function firstSync(client: CalDavClient, calendarUrl: string) {
  const { objects, state } = await client.fullSync(calendarUrl);
  return { objects: new Map(objects.map((o) => [o.href, o])), state };
}

describe('CalDAV against radicale', () => {
  it('refuses a wrong app password with a 401 CalDavError', async () => {
    const attempt = connectCalDav({ serverUrl: radicale.url, username: owner.username, password: 'wrong' });
    await expect(attempt).rejects.toBeInstanceOf(CalDavError);
    await expect(attempt).rejects.toMatchObject({ status: 401 });
  });

  it('lists the calendars with their CTag, sync token and sync-collection support', async () => {
    const url = await newCalendar();
    const client = await connect();
    const calendar = (await client.listCalendars()).find((c) => c.url === url);
    expect(calendar).toMatchObject({ url, supportsSyncCollection: true });
    expect(calendar?.ctag).toBeTruthy();
    expect(calendar?.syncToken).toMatch(/^http:\/\/radicale\.org\/ns\/sync\//);
  });

  it('syncs by sync-collection: a first full read, then only what changed, and a deleted event is a cancellation', async () => {
    const url = await newCalendar();
    await seed(url);
    const client = await connect();
    const first = await firstSync(client, url);
    expect([...first.objects.keys()].map(name).sort()).toEqual(['colour.ics', 'cut.ics', 'standing.ics']);
    expect(first.state.syncToken).toBeTruthy();

    await ownerCancels(url);
    const before = client.requestCount();
    const changes = await client.syncChanges(url, first.state);
    expect(changes.method).toBe('sync-collection');
    expect(changes.deleted.map(name)).toEqual(['cut.ics']);
    expect(changes.changed.map((o) => name(o.href)).sort()).toEqual(['lunch.ics', 'standing.ics']);
    // One REPORT sync-collection and one calendar-multiget for the two changed objects.
    expect(client.requestCount() - before).toBe(2);
    expect(changes.state.syncToken).not.toBe(first.state.syncToken);

    const after = apply(first.objects, changes);
    const { cancellations, moves } = detectChanges(
      eventsOf(first.objects.values()),
      eventsOf(after.values()),
      {
        now: NOW,
        horizonDays: 7,
        exclude: ['Lunch'],
      },
    );
    expect(cancellations.map((e) => [e.uid, e.recurrenceId, e.start.toISOString()]).sort()).toEqual([
      ['cut', null, '2030-01-07T15:00:00.000Z'],
      ['standing', '2030-01-09T10:00:00.000Z', '2030-01-09T10:00:00.000Z'],
    ]);
    expect(moves).toEqual([]);

    const quiet = await client.syncChanges(url, changes.state);
    expect(quiet).toMatchObject({ method: 'sync-collection', changed: [], deleted: [] });
    expect(quiet.state.syncToken).toBe(changes.state.syncToken);
  });

  it('sees a moved event and a lost attendee through sync-collection', async () => {
    const url = await newCalendar();
    await seed(url);
    const client = await connect();
    const first = await firstSync(client, url);
    await ownerPuts(url, 'cut', vevent('cut', '20300110T150000Z', 'SUMMARY:Cut – Priya'));
    await ownerPuts(url, 'colour', vevent('colour', '20300108T150000Z', 'SUMMARY:Colour'));
    const changes = await client.syncChanges(url, first.state);
    expect(changes.method).toBe('sync-collection');
    const after = apply(first.objects, changes);
    const { cancellations, moves } = detectChanges(
      eventsOf(first.objects.values()),
      eventsOf(after.values()),
      {
        now: NOW,
        horizonDays: 7,
        exclude: [],
      },
    );
    expect(cancellations.map((e) => e.uid)).toEqual(['colour']);
    expect(moves.map((m) => [m.from.uid, m.to.start.toISOString()])).toEqual([
      ['cut', '2030-01-10T15:00:00.000Z'],
    ]);
  });

  it('falls back to ETags when the server no longer knows the sync token', async () => {
    const url = await newCalendar();
    await seed(url);
    const client = await connect();
    const first = await firstSync(client, url);
    await ownerCancels(url);
    const stale = { ...first.state, syncToken: 'http://radicale.org/ns/sync/0000000000000000' };
    const changes = await client.syncChanges(url, stale);
    expect(changes.method).toBe('etag');
    expect(changes.deleted.map(name)).toEqual(['cut.ics']);
    expect(changes.changed.map((o) => name(o.href)).sort()).toEqual(['lunch.ics', 'standing.ics']);
    // The fallback hands back a fresh token, so the next sync is by sync-collection again.
    expect(changes.state.syncToken).toMatch(/^http:\/\/radicale\.org\/ns\/sync\//);
    expect((await client.syncChanges(url, changes.state)).method).toBe('sync-collection');
  });

  it('syncs by CTag and ETag when forced to (a server without sync-collection)', async () => {
    const url = await newCalendar();
    await seed(url);
    const client = await connect({ forceEtagSync: true });
    const first = await firstSync(client, url);
    expect(first.state.syncToken).toBeNull();

    const before = client.requestCount();
    const unchanged = await client.syncChanges(url, first.state);
    expect(unchanged).toMatchObject({ method: 'unchanged', changed: [], deleted: [] });
    expect(client.requestCount() - before).toBe(1);

    await ownerCancels(url);
    const changes = await client.syncChanges(url, unchanged.state);
    expect(changes.method).toBe('etag');
    expect(changes.deleted.map(name)).toEqual(['cut.ics']);
    expect(changes.changed.map((o) => name(o.href)).sort()).toEqual(['lunch.ics', 'standing.ics']);
    expect(changes.state.ctag).not.toBe(first.state.ctag);
    expect(Object.keys(changes.state.etags).map(name).sort()).toEqual([
      'colour.ics',
      'lunch.ics',
      'standing.ics',
    ]);
    expect((await client.syncChanges(url, changes.state)).method).toBe('unchanged');
  });

  it('writes our booking into the calendar, reads it back as ours, and deletes it by href and ETag', async () => {
    const url = await newCalendar();
    const client = await connect();
    const first = await firstSync(client, url);
    const ics = toIcs({
      openingId: 'f3a1c2d4-0000-4000-8000-000000000001',
      start: new Date('2030-01-08T15:30:00Z'),
      end: new Date('2030-01-08T16:15:00Z'),
      customerName: 'Ana López',
      customerPhone: '+15551234567',
      serviceName: 'Cut',
      now: NOW,
    });
    const created = await client.createEvent(url, { filename: 'f3a1c2d4.ics', ics });
    expect(created.href).toBe(`${url}f3a1c2d4.ics`);
    expect(created.etag).toBeTruthy();
    await expect(client.createEvent(url, { filename: 'f3a1c2d4.ics', ics })).rejects.toMatchObject({
      status: 412,
    });

    const changes = await client.syncChanges(url, first.state);
    const [booked] = eventsOf(changes.changed);
    expect(booked).toMatchObject({ ours: true, title: 'Cut – Ana López (+15551234567)' });
    expect(
      detectChanges(eventsOf(changes.changed), [], { now: NOW, horizonDays: 7, exclude: [] }).cancellations,
    ).toEqual([]);

    await expect(client.deleteEvent({ href: created.href, etag: '"stale"' })).rejects.toMatchObject({
      status: 412,
    });
    await client.deleteEvent(created);
    const gone = await client.syncChanges(url, changes.state);
    expect(gone.deleted).toEqual([created.href]);
    await client.deleteEvent(created); // already gone: nothing to do
  });
});
