import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCalendarEvents } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { type CalDavClient, connectCalDav } from '../calendar/caldav-client.ts';
import { bookingUid, toIcs } from '../calendar/ics.ts';
import { owner } from '../waitlist/waitlist.test-helpers.ts';
import { localCalendarFetch } from './local-calendar.routes.ts';

/** Issue 29: the local calendar, served as CalDAV, driven by the app's own CalDAV client (tsdav). */

let t: TestApp;
let business: Awaited<ReturnType<typeof owner>>;
let client: CalDavClient;
let calendarUrl: string;

const addEvent = (payload: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/dev/calendar/events',
    payload: { userId: business.id, durationMinutes: 30, ...payload },
  });

beforeAll(async () => {
  t = await createTestApp();
  business = await owner(t, { timeZone: 'America/Chicago' });
  client = await connectCalDav({
    serverUrl: `http://localhost/dev/calendar/dav/${business.id}/`,
    username: 'anyone',
    password: 'anything',
    fetch: localCalendarFetch(t.app),
  });
  const calendars = await client.listCalendars();
  expect(calendars).toHaveLength(1);
  calendarUrl = calendars[0]!.url;
});
afterAll(() => t.close());

describe('the local calendar over CalDAV', () => {
  it('lists the one calendar of the business, with sync-collection', async () => {
    const [calendar] = await client.listCalendars();
    expect(calendar).toMatchObject({
      url: `http://localhost/dev/calendar/dav/${business.id}/`,
      supportsSyncCollection: true,
    });
    expect(calendar!.displayName).toContain('(local calendar)');
    expect(calendar!.syncToken).toBeTruthy();
  });

  it('first sync sees events added through the JSON API; then sync-collection sees a move and a deletion', async () => {
    const cut = await addEvent({ title: 'Cut – Priya', startsAt: '2026-11-24T10:00', attendee: 'Priya' });
    const color = await addEvent({ title: 'Color – Ana', startsAt: '2026-11-24T13:00' });
    expect(cut.statusCode).toBe(201);
    // 10:00 in Chicago (UTC−6 in November).
    expect(cut.json().data).toMatchObject({ startsAt: '2026-11-24T16:00:00.000Z', attendees: ['Priya'] });
    const first = await client.fullSync(calendarUrl);
    const titles = first.objects.map((object) => /SUMMARY:(.*)/.exec(object.data)?.[1]?.trim());
    expect(titles.sort()).toEqual(['Color – Ana', 'Cut – Priya']);

    const moved = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/dev/calendar/events/${business.id}/${encodeURIComponent(cut.json().data.uid)}`,
      payload: { startsAt: '2026-11-24T11:30' },
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ startsAt: '2026-11-24T17:30:00.000Z', durationMinutes: 30 });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/dev/calendar/events/${business.id}/${encodeURIComponent(color.json().data.uid)}`,
    });
    expect(deleted.statusCode).toBe(200);

    const changes = await client.syncChanges(calendarUrl, first.state);
    expect(changes.method).toBe('sync-collection');
    expect(changes.changed.map((object) => object.href)).toEqual([`http://localhost${cut.json().data.href}`]);
    expect(changes.changed[0]!.data).toContain('DTSTART:20261124T173000Z');
    expect(changes.deleted).toEqual([`http://localhost${color.json().data.href}`]);
    expect(changes.state.syncToken).not.toBe(first.state.syncToken);

    // Nothing new since: an empty answer with the same token.
    const quiet = await client.syncChanges(calendarUrl, changes.state);
    expect(quiet).toMatchObject({ changed: [], deleted: [], method: 'sync-collection' });
  });

  it('an unknown sync token is refused with valid-sync-token, and the client falls back to ETags', async () => {
    const raw = await t.app.inject({
      method: 'REPORT',
      url: `/dev/calendar/dav/${business.id}/`,
      headers: { 'content-type': 'application/xml' },
      payload: `<?xml version="1.0"?><x:sync-collection xmlns:x="DAV:"><x:sync-token>urn:other:9</x:sync-token><x:sync-level>1</x:sync-level><x:prop><x:getetag/></x:prop></x:sync-collection>`,
    });
    expect(raw.statusCode).toBe(403);
    expect(raw.body).toContain('valid-sync-token');

    const { state } = await client.fullSync(calendarUrl);
    const added = await addEvent({ title: 'Beard', startsAt: '2026-11-25T09:00' });
    const changes = await client.syncChanges(calendarUrl, { ...state, syncToken: 'urn:forgotten:1' });
    expect(changes.method).toBe('etag');
    expect(changes.changed.map((object) => object.href)).toEqual([
      `http://localhost${added.json().data.href}`,
    ]);
    expect(changes.deleted).toEqual([]);
  });

  it('PUT with If-None-Match: * twice: 201 then 412; If-Match with a stale ETag: 412', async () => {
    const url = `/dev/calendar/dav/${business.id}/twice.ics`;
    const ics = toIcs({
      openingId: '11111111-1111-4111-8111-111111111111',
      start: new Date('2026-11-26T15:00:00Z'),
      end: new Date('2026-11-26T15:30:00Z'),
      customerName: 'Cara',
      customerPhone: '+12125550123',
      now: t.clock.now(),
    });
    const put = (headers: Record<string, string>, body = ics) =>
      t.app.inject({
        method: 'PUT',
        url,
        headers: { 'content-type': 'text/calendar', ...headers },
        payload: body,
      });
    const created = await put({ 'if-none-match': '*' });
    expect(created.statusCode).toBe(201);
    expect(created.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await put({ 'if-none-match': '*' })).statusCode).toBe(412);
    expect((await put({ 'if-match': '"stale"' })).statusCode).toBe(412);
    const updated = await put({ 'if-match': String(created.headers.etag) }, ics.replace('Cara', 'Carla'));
    expect(updated.statusCode).toBe(204);
    expect(updated.headers.etag).not.toBe(created.headers.etag);
    expect((await put({}, 'not a calendar')).statusCode).toBe(400);
    const got = await t.app.inject({ url });
    expect(got.headers.etag).toBe(updated.headers.etag);
    expect(got.body).toContain('Carla');
  });

  it("the client's create and delete of our booking event work, and the page marks it as ours", async () => {
    const openingId = '22222222-2222-4222-8222-222222222222';
    const ics = toIcs({
      openingId,
      start: new Date('2026-11-24T20:00:00Z'),
      end: new Date('2026-11-24T20:30:00Z'),
      customerName: 'Dee',
      customerPhone: '+12125550124',
      serviceName: 'Cut',
      now: t.clock.now(),
    });
    const written = await client.createEvent(calendarUrl, { filename: `${bookingUid(openingId)}.ics`, ics });
    expect(written.etag).toBeTruthy();
    const listed = await t.app.inject({ url: `/api/v1/dev/calendar/events?userId=${business.id}` });
    const ours = listed.json().data.find((event: { title: string }) => event.title.startsWith('Cut – Dee'));
    expect(ours).toMatchObject({ ours: true, startsAt: '2026-11-24T20:00:00.000Z' });
    // The href the client wrote is the very string the calendar reports for it (the `@` of the UID kept).
    expect(`http://localhost${ours.href}`).toBe(written.href);
    const page = await t.app.inject({ url: `/dev/calendar?userId=${business.id}` });
    expect(page.body).toMatch(
      /Cut – Dee \(\+12125550124\)<\/strong> <span class="badge ours">booked by Waitlist &amp; Text/,
    );

    await expect(client.deleteEvent({ href: written.href, etag: '"stale"' })).rejects.toMatchObject({
      status: 412,
    });
    await client.deleteEvent({ href: written.href, etag: written.etag });
    expect((await t.app.inject({ url: new URL(written.href).pathname })).statusCode).toBe(404);
    // Deleting what is gone is fine for the client (404).
    await client.deleteEvent({ href: written.href });
  });

  it('writes at the same time get one change number each, so an incremental sync misses none', async () => {
    const { state } = await client.fullSync(calendarUrl);
    const added = await Promise.all(
      Array.from({ length: 8 }, (_, n) => addEvent({ title: `Walk-in ${n}`, startsAt: '2026-11-28T12:00' })),
    );
    expect(added.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    const rows = await t.database.db
      .select({ seq: localCalendarEvents.seq })
      .from(localCalendarEvents)
      .where(eq(localCalendarEvents.userId, business.id));
    expect(new Set(rows.map((row) => row.seq)).size).toBe(rows.length);
    const changes = await client.syncChanges(calendarUrl, state);
    expect(changes.method).toBe('sync-collection');
    expect(changes.changed.map((object) => object.href).sort()).toEqual(
      added.map((response) => `http://localhost${response.json().data.href}`).sort(),
    );
  });

  it('an unknown business is 404 on every way in', async () => {
    const missing = '33333333-3333-4333-8333-333333333333';
    const propfind = await t.app.inject({ method: 'PROPFIND', url: `/dev/calendar/dav/${missing}/` });
    expect(propfind.statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'PROPFIND', url: '/dev/calendar/dav/not-a-uuid/' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/dev/calendar/events?userId=${missing}` })).statusCode).toBe(
      404,
    );
  });
});

describe('the /dev/calendar page', () => {
  it('adds, moves, cancels, strips the attendee and deletes with forms answering 303, escaping titles', async () => {
    const form = (url: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });
    const added = await form('/dev/calendar/events', {
      userId: business.id,
      title: '<script>alert(1)</script>',
      date: '2026-11-27',
      time: '09:15',
      minutes: '45',
      attendee: 'Eve',
    });
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`/dev/calendar?userId=${business.id}`);
    const page = await t.app.inject({ url: added.headers.location! });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(page.body).toContain('45 min · With Eve');

    const events = (await t.app.inject({ url: `/api/v1/dev/calendar/events?userId=${business.id}` })).json()
      .data;
    const event = events.find((e: { title: string }) => e.title === '<script>alert(1)</script>');
    const action = `/dev/calendar/events/${business.id}/${encodeURIComponent(event.uid)}`;
    expect((await form(action, { action: 'move', date: '2026-11-27', time: '10:00' })).statusCode).toBe(303);
    expect((await form(action, { action: 'remove-attendee' })).statusCode).toBe(303);
    expect((await form(action, { action: 'cancel' })).statusCode).toBe(303);
    const after = (await t.app.inject({ url: `/api/v1/dev/calendar/events?userId=${business.id}` })).json()
      .data;
    expect(after.find((e: { uid: string }) => e.uid === event.uid)).toMatchObject({
      startsAt: '2026-11-27T16:00:00.000Z',
      durationMinutes: 45,
      attendees: [],
      status: 'cancelled',
    });
    expect((await form(action, { action: 'delete' })).statusCode).toBe(303);
    expect((await form(action, { action: 'delete' })).statusCode).toBe(404);
    expect((await form(action, { action: 'fly' })).statusCode).toBe(400);
  });

  it('finds a business by its owner email, and says so when none has it', async () => {
    const found = await t.app.inject({ url: `/dev/calendar?owner=${encodeURIComponent(business.email)}` });
    expect(found.body).toContain(`/dev/calendar/dav/${business.id}/`);
    const missing = await t.app.inject({ url: '/dev/calendar?owner=nobody%40example.com' });
    expect(missing.body).toContain('No business uses nobody@example.com.');
  });
});

describe('on a public HOST', () => {
  it('the local calendar is refused without an admin session (LOCAL_TOOLS=admin) and absent otherwise', async () => {
    const admin = await createTestApp({
      env: { HOST: '0.0.0.0', NODE_ENV: 'production', LOCAL_TOOLS: 'admin' },
    });
    const closed = await createTestApp({ env: { HOST: '0.0.0.0', NODE_ENV: 'production' } });
    try {
      for (const [app, status] of [
        [admin, 401],
        [closed, 404],
      ] as const) {
        const id = '44444444-4444-4444-8444-444444444444';
        expect((await app.app.inject({ url: '/dev/calendar', remoteAddress: '127.0.0.1' })).statusCode).toBe(
          status,
        );
        const dav = await app.app.inject({
          method: 'PROPFIND',
          url: `/dev/calendar/dav/${id}/`,
          remoteAddress: '127.0.0.1',
        });
        expect(dav.statusCode).toBe(status);
      }
    } finally {
      await admin.close();
      await closed.close();
    }
  });
});
