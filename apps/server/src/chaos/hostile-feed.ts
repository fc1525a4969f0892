import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { openDatabase } from '../db/client.ts';
import { api, startInstance } from '../test/instance.ts';
import { login, newDatabase, p50, prepareOwner, results, say } from './harness.ts';

/**
 * Issue 38: a verified owner connects a feed whose repeat rule makes ical.js spin (FREQ=DAILY;BYMONTH=2;
 * BYMONTHDAY=30 gets past every check but the time limit) while another owner's requests go on. The feed is
 * parsed on the parser's worker thread, which is ended at its time limit: the other owner's answers and
 * `/health` must not slow. The fault fails when `/health` ever took a second or more.
 */
export async function hostileFeed() {
  const fault = 'a feed whose repeat rule never ends, read while another owner works';
  say(`${fault}…`);
  const url = await newDatabase();
  const database = openDatabase({ url });
  await database.migrate();
  const calm = await prepareOwner(database, undefined, 0);
  const mallory = await prepareOwner(database, undefined, 0);
  const stamp = new Date(Date.now() + 26 * 3_600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const body = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//chaos//EN',
    ...Array.from({ length: 3 }, (_, n) => [
      'BEGIN:VEVENT',
      `UID:spin-${n}@chaos`,
      'DTSTAMP:20261101T000000Z',
      `SUMMARY:Spin ${n}`,
      'DTSTART:20261201T090000Z',
      'DURATION:PT30M',
      'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30',
      'END:VEVENT',
    ]).flat(),
    'BEGIN:VEVENT',
    'UID:cut@chaos',
    'DTSTAMP:20261101T000000Z',
    'SUMMARY:Cut',
    `DTSTART:${stamp}`,
    'DURATION:PT45M',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const feed = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/calendar' }).end(body);
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
  const feedUrl = `http://127.0.0.1:${(feed.address() as AddressInfo).port}/spin.ics`;
  const instance = await startInstance({
    DATABASE_URL: url,
    PUBLIC_URL: 'http://app.test',
    CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true',
  });
  try {
    const calmToken = await login(instance, calm.owner.email, calm.owner.password);
    const malloryToken = await login(instance, mallory.owner.email, mallory.owner.password);
    /** The other owner's waitlist page and `/health`, one after another, for `ms`. */
    const load = async (ms: number) => {
      const waitlist: number[] = [];
      const health: number[] = [];
      const until = Date.now() + ms;
      while (Date.now() < until) {
        let started = performance.now();
        await api(instance.url, 'GET', '/waitlist', { token: calmToken });
        waitlist.push(performance.now() - started);
        started = performance.now();
        const answer = await api(instance.url, 'GET', '/health');
        health.push(performance.now() - started);
        if (answer.status !== 200) throw new Error(`/health answered ${answer.status}`);
        await sleep(20);
      }
      return { waitlist, health };
    };
    const before = await load(3_000);
    const connectStarted = performance.now();
    const [during, connect] = await Promise.all([
      load(8_000),
      api(instance.url, 'POST', '/calendar/connections', {
        token: malloryToken,
        body: { kind: 'ics', url: feedUrl },
      }).then((answer) => ({ answer, ms: performance.now() - connectStarted })),
    ]);
    const skipped = (connect.answer.json?.data?.skipped ?? []) as { reason: string }[];
    const slowest = Math.max(...during.health);
    results.push({
      fault,
      sent: 'n/a',
      lost: slowest >= 1_000 ? 1 : 0,
      duplicated: 0,
      notes: `other owner's waitlist p50 ${p50(before.waitlist).toFixed(1)} ms before, ${p50(during.waitlist).toFixed(1)} ms during; /health slowest ${slowest.toFixed(0)} ms during (${during.health.length} answers); the connect answered ${connect.answer.status} in ${(connect.ms / 1000).toFixed(1)} s with ${skipped.filter((event) => event.reason === 'too-slow').length} of 3 spinning events skipped as too slow`,
    });
  } finally {
    await instance.stop();
    await database.close();
    await new Promise((resolve) => feed.close(resolve));
  }
}
