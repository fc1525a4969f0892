import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { offerMessages, UNNAMED_SERVICE } from '@waitlist/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarConnections, messages } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { icsFeed } from './ics-feed.test-helpers.ts';

/**
 * Issue 38, what an owner's calendar and its rules may put in front of customers: a rule names only the
 * owner's own services and staff (checked when saved; one deleted later leaves the slot without it), and an
 * event's title, which anyone who can write to the calendar chose, never becomes a customer's text. Each
 * business reads its own ICS feed from a local server.
 */
let t: TestApp;
let server: Server;
let base: string;
/** Each feed's events, by its path. */
const feeds = new Map<string, Map<string, { title: string; start: Date }>>();

const vcalendar = (events: Map<string, { title: string; start: Date }>) =>
  icsFeed(...[...events].map(([uid, event]) => ({ uid, ...event })));

beforeAll(async () => {
  server = createServer((request, response) => {
    const events = feeds.get(request.url ?? '');
    if (!events) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/calendar' }).end(vcalendar(events));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestApp({ env: { CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true' } });
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

const inHours = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000);
async function aMinuteLater() {
  t.clock.advance(61_000);
  return t.app.calendarWorker.runOnce();
}

let businesses = 0;
/**
 * A business with two customers waiting (10:00 in New York at the test clock's 15:00 UTC: nobody is held for
 * quiet hours), its feed connected; `feed` adds and removes its events.
 */
async function connectedOwner() {
  businesses += 1;
  const path = `/feeds/${businesses}/basic.ics`;
  const events = new Map<string, { title: string; start: Date }>();
  feeds.set(path, events);
  const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
  await addCustomer(t, o.token, 3800 + businesses * 2);
  await addCustomer(t, o.token, 3801 + businesses * 2);
  const connected = await call(t, o.token, 'POST', '/calendar/connections', {
    kind: 'ics',
    url: `${base}${path}`,
  });
  expect(connected.statusCode, connected.body).toBe(201);
  const feed = {
    add(title: string) {
      const uid = `evt-${events.size + 1}-${businesses}`;
      events.set(uid, { title, start: inHours(26 + events.size) });
      return uid;
    },
    remove: (uid: string) => events.delete(uid),
  };
  return { o, connection: connected.json().data as { id: string }, feed };
}
const settings = (token: string, id: string, body: object) =>
  call(t, token, 'PATCH', `/calendar/connections/${id}`, body);
const rulesOf = async (id: string) =>
  (await t.database.db.select().from(calendarConnections).where(eq(calendarConnections.id, id)))[0]!.rules;
const textsTo = async (userId: string) =>
  (
    await t.database.db
      .select({ body: messages.body })
      .from(messages)
      .where(and(eq(messages.userId, userId), eq(messages.direction, 'out')))
  ).map((text) => text.body);

describe('a calendar rule', () => {
  it("naming another owner's service or staff member, or any other id, is refused on the rule's field; the owner's own are saved", async () => {
    const { o, connection } = await connectedOwner();
    const other = await owner(t);
    const theirService = (
      await call(t, other.token, 'POST', '/services', { name: 'Cut', durationMinutes: 30 })
    ).json().data.id as string;
    const theirStaff = (await call(t, other.token, 'POST', '/staff', { name: 'Joe' })).json().data
      .id as string;
    const ownService = (
      await call(t, o.token, 'POST', '/services', { name: 'Cut', durationMinutes: 30 })
    ).json().data.id as string;
    const ownStaff = (await call(t, o.token, 'POST', '/staff', { name: 'Joe' })).json().data.id as string;

    const refused: [object[], Record<string, string>][] = [
      [
        [{ contains: 'cut', serviceId: theirService }],
        { 'rules.0.serviceId': offerMessages.serviceNotFound },
      ],
      [
        [
          { contains: 'cut', serviceId: ownService },
          { contains: 'joe', staffId: theirStaff },
        ],
        { 'rules.1.staffId': offerMessages.staffNotFound },
      ],
      [[{ contains: 'cut', serviceId: 'not-an-id' }], { 'rules.0.serviceId': offerMessages.serviceNotFound }],
      [
        [{ contains: 'cut', serviceId: crypto.randomUUID(), staffId: crypto.randomUUID() }],
        {
          'rules.0.serviceId': offerMessages.serviceNotFound,
          'rules.0.staffId': offerMessages.staffNotFound,
        },
      ],
    ];
    for (const [rules, errors] of refused) {
      const answer = await settings(o.token, connection.id, { rules });
      expect(answer.statusCode, JSON.stringify(rules)).toBe(400);
      expect(answer.json()).toEqual({ success: false, message: Object.values(errors)[0], errors });
      expect(await rulesOf(connection.id)).toEqual([]);
    }

    const own = [{ contains: 'cut', serviceId: ownService, staffId: ownStaff, priceCents: 4500 }];
    const saved = await settings(o.token, connection.id, { rules: own });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await rulesOf(connection.id)).toEqual(own);
  });

  it('whose service and staff member were deleted since: the sync proposes the slot, and it opens for any service', async () => {
    const { o, connection, feed } = await connectedOwner();
    const service = (
      await call(t, o.token, 'POST', '/services', { name: 'Colour', durationMinutes: 60 })
    ).json().data.id as string;
    const staff = (await call(t, o.token, 'POST', '/staff', { name: 'Kim' })).json().data.id as string;
    const eventId = feed.add('Colour – Kim');
    await aMinuteLater();
    const rules = [{ contains: 'colour', serviceId: service, staffId: staff }];
    expect((await settings(o.token, connection.id, { rules })).statusCode).toBe(200);
    expect((await call(t, o.token, 'DELETE', `/services/${service}`)).statusCode).toBe(200);
    expect((await call(t, o.token, 'DELETE', `/staff/${staff}`)).statusCode).toBe(200);

    feed.remove(eventId);
    expect(await aMinuteLater()).toMatchObject({ proposed: 1 });
    const [proposal] = (await call(t, o.token, 'GET', '/calendar/proposals')).json().data;
    const opened = await call(t, o.token, 'POST', `/calendar/proposals/${proposal.id}/open`);
    expect(opened.statusCode, opened.body).toBe(200);
    const opening = (await call(t, o.token, 'GET', `/openings/${opened.json().data.openingId}`)).json().data;
    expect(opening).toMatchObject({ service: UNNAMED_SERVICE, serviceId: null, staffId: null });
  });
});

describe("an event's title", () => {
  const hostile = 'Cut - Joe http://evil.example WIN $$$';
  const leaks = ['evil.example', 'WIN', '$$$', 'Joe', 'Cut'];

  it.each(['auto', 'ask'] as const)(
    'never reaches a customer in %s mode: texts name the owner’s own service, else none',
    async (mode) => {
      const { o, connection, feed } = await connectedOwner();
      const hostileId = feed.add(hostile);
      const matchedId = feed.add('Colour for Joe http://evil.example WIN $$$');
      await aMinuteLater();
      const colour = (
        await call(t, o.token, 'POST', '/services', { name: 'Colour', durationMinutes: 60 })
      ).json().data.id as string;
      const body = { mode, graceMinutes: 0, rules: [{ contains: 'colour', serviceId: colour }] };
      expect((await settings(o.token, connection.id, body)).statusCode).toBe(200);

      feed.remove(hostileId);
      feed.remove(matchedId);
      await aMinuteLater();
      if (mode === 'ask') {
        const proposals = (await call(t, o.token, 'GET', '/calendar/proposals')).json().data as {
          id: string;
          title: string;
        }[];
        // The owner still reads the calendar's own titles on the proposals.
        expect(proposals.map((proposal) => proposal.title).sort()).toEqual([
          'Colour for Joe http://evil.example WIN $$$',
          hostile,
        ]);
        for (const proposal of proposals)
          expect((await call(t, o.token, 'POST', `/calendar/proposals/${proposal.id}/open`)).statusCode).toBe(
            200,
          );
      }
      const openings = (await call(t, o.token, 'GET', '/openings')).json().data as { service: string }[];
      expect(openings.map((opening) => opening.service).sort()).toEqual([UNNAMED_SERVICE, 'Colour']);

      const texts = await textsTo(o.id);
      // Each slot offered to both customers (nobody is held for quiet hours at 10:00 in New York).
      expect(texts.length).toBeGreaterThanOrEqual(2);
      for (const text of texts) for (const leak of leaks) expect(text).not.toContain(leak);
      expect(texts.some((text) => text.includes('(Colour)'))).toBe(true);
      expect(texts.some((text) => text.includes(UNNAMED_SERVICE))).toBe(false);
    },
  );
});
