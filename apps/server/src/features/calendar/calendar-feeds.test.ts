import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_CALENDAR_CONNECTIONS, calendarMessages as m } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { icsFeed } from './ics-feed.test-helpers.ts';

/**
 * Issue 29: the local calendar (the embedded default, served as CalDAV at /dev/calendar) end to end; an ICS
 * feed read with a conditional GET; an address on this machine refused unless allowed; the limit of
 * connected calendars held under a burst.
 */
let t: TestApp;
let strict: TestApp;
let feed: Server;
let feedUrl: string;
let feedBody = '';
let feedRequests: { ifNoneMatch: string | undefined }[] = [];

const vcalendar = icsFeed;

beforeAll(async () => {
  // A booking tool publishing an ICS feed, with an ETag so an unchanged feed answers 304.
  feed = createServer((request, response) => {
    feedRequests.push({ ifNoneMatch: request.headers['if-none-match'] });
    const etag = `"${Buffer.from(feedBody).toString('base64').length}-${feedBody.length}"`;
    if (request.headers['if-none-match'] === etag) return void response.writeHead(304).end();
    response.writeHead(200, { 'content-type': 'text/calendar', etag }).end(feedBody);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/private/abc123/basic.ics`;
  t = await createTestApp({ env: { CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true' } });
  strict = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await strict?.close();
  await new Promise((resolve) => feed?.close(resolve));
});

const inHours = (app: TestApp, hours: number) => new Date(app.clock.now().getTime() + hours * 3_600_000);
async function aMinuteLater(app: TestApp) {
  app.clock.advance(61_000);
  return app.app.calendarWorker.runOnce();
}
const waiting = async (app: TestApp, token: string) =>
  (await call(app, token, 'GET', '/calendar/proposals')).json().data as { title: string; status: string }[];

describe('the local calendar (npm start, offline)', () => {
  it('is offered, and a cancellation made at /dev/calendar becomes a proposal for the owner', async () => {
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, 5101);
    const dev = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1/dev/calendar/events${url}`,
        headers: { host: 'localhost' },
        payload,
      });
    const added = await dev('POST', '', {
      userId: o.id,
      title: 'Beard trim – Sam',
      startsAt: inHours(t, 20).toISOString(),
      durationMinutes: 30,
      attendee: 'Sam',
    });
    expect(added.statusCode, added.body).toBe(201);
    const list = await call(t, o.token, 'GET', '/calendar/connections');
    expect(list.json().available).toContain('local');
    const connected = await call(t, o.token, 'POST', '/calendar/connections', { kind: 'local' });
    expect(connected.statusCode, connected.body).toBe(201);
    expect(connected.json().data).toMatchObject({ kind: 'local', writesBookings: true });
    expect((await dev('DELETE', `/${o.id}/${added.json().data.uid}`)).statusCode).toBe(200);
    await aMinuteLater(t);
    expect(await waiting(t, o.token)).toMatchObject([{ title: 'Beard trim – Sam', status: 'proposed' }]);
  });
});

describe('an ICS feed', () => {
  it('is read again only when it changed (If-None-Match), its private link never shown back, and a removed event proposed', async () => {
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, 5201);
    feedBody = vcalendar(
      { uid: 'a@tool', title: 'Nails – Kim', start: inHours(t, 30) },
      { uid: 'b@tool', title: 'Nails – Lee', start: inHours(t, 32) },
    );
    const connected = await call(t, o.token, 'POST', '/calendar/connections', { kind: 'ics', url: feedUrl });
    expect(connected.statusCode, connected.body).toBe(201);
    expect(connected.json().data).toMatchObject({ kind: 'ics', writesBookings: false });
    expect(connected.body).not.toContain('abc123');
    feedRequests = [];
    await aMinuteLater(t);
    expect(feedRequests.at(-1)?.ifNoneMatch).toBeDefined();
    expect(await waiting(t, o.token)).toEqual([]);
    feedBody = vcalendar({ uid: 'a@tool', title: 'Nails – Kim', start: inHours(t, 30) });
    await aMinuteLater(t);
    expect(await waiting(t, o.token)).toMatchObject([{ title: 'Nails – Lee', status: 'proposed' }]);
  });

  it('a link that is not a calendar is refused on its field, nothing stored', async () => {
    const o = await owner(t);
    feedBody = '<html>Sign in</html>';
    const response = await call(t, o.token, 'POST', '/calendar/connections', { kind: 'ics', url: feedUrl });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ errors: { url: m.feedUnreadable } });
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toEqual([]);
  });

  it(`a burst of connects stops at ${MAX_CALENDAR_CONNECTIONS} calendars`, async () => {
    const o = await owner(t);
    feedBody = vcalendar({ uid: 'c@tool', title: 'Wax', start: inHours(t, 40) });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(t, o.token, 'POST', '/calendar/connections', { kind: 'ics', url: feedUrl }),
      ),
    );
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 201)).toHaveLength(MAX_CALENDAR_CONNECTIONS);
    expect(answers.filter((answer) => answer.statusCode === 400).map((a) => a.json().message)).toEqual(
      Array(8 - MAX_CALENDAR_CONNECTIONS).fill(m.tooMany),
    );
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toHaveLength(
      MAX_CALENDAR_CONNECTIONS,
    );
  });
});

describe('addresses the server may not reach (the default)', () => {
  it('refuses this machine, a private network and the cloud metadata address, before any request', async () => {
    const o = await owner(strict);
    feedRequests = [];
    for (const url of [
      feedUrl,
      'http://10.0.0.7/cal.ics',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:80/x.ics',
    ]) {
      const response = await call(strict, o.token, 'POST', '/calendar/connections', { kind: 'ics', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toMatchObject({ errors: { url: m.urlNotAllowed } });
    }
    expect(feedRequests).toEqual([]);
    const list = await call(strict, o.token, 'GET', '/calendar/connections');
    expect(list.json()).toMatchObject({ data: [] });
  });
});
