import { afterAll, describe, expect, it } from 'vitest';
import { CalendarParseTimeout, createIcsParser } from './ics-parser.ts';

/**
 * Issue 38: the parser's worker thread and its time limit. ical.js spins inside one step of
 * FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30 (no 30 February ever comes), so only ending the thread stops it.
 */
const parser = createIcsParser({ budgetMs: 400, maxRetries: 1 });
afterAll(() => parser.close());

const calendar = (...uids: string[]) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    ...uids.flatMap((uid) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20261101T000000Z',
      `SUMMARY:Title of ${uid}`,
      'DTSTART:20261201T090000Z',
      'DURATION:PT30M',
      uid.startsWith('spin') ? 'RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30' : 'RRULE:FREQ=DAILY;COUNT=2',
      'END:VEVENT',
    ]),
    'END:VCALENDAR',
  ].join('\r\n');
const window = { from: new Date('2026-12-01T00:00:00Z'), to: new Date('2026-12-10T00:00:00Z') };

describe('the calendar parser (a worker thread with a time limit)', () => {
  it('keeps the event loop free while a rule spins, ends the thread, and skips that event at the next try', async () => {
    let ticks = 0;
    const timer = setInterval(() => {
      ticks += 1;
    }, 20);
    const [result] = await parser.parse([calendar('ok', 'spin-a')], window);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(10);
    expect(result).toMatchObject({
      events: [{ uid: 'ok' }, { uid: 'ok' }],
      skipped: [{ uid: 'spin-a', title: 'Title of spin-a', reason: 'too-slow' }],
    });
  });

  it('gives up after its tries, naming the events found on the way so the next read skips them', async () => {
    const failed = await parser
      .parse([calendar('spin-a', 'spin-b', 'spin-c')], window)
      .catch((error) => error);
    expect(failed).toBeInstanceOf(CalendarParseTimeout);
    expect((failed as CalendarParseTimeout).slow.map((event) => event.uid)).toEqual(['spin-a', 'spin-b']);
    const [next] = await parser.parse([calendar('spin-a', 'spin-b', 'ok')], window, ['spin-a', 'spin-b']);
    expect(next).toMatchObject({ events: [{ uid: 'ok' }, { uid: 'ok' }] });
  });

  it('reports a text that is not a calendar as an error of that text, not of the others', async () => {
    const results = await parser.parse(
      ['BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:bad', calendar('ok')],
      window,
    );
    expect(results[0]).toHaveProperty('error');
    expect(results[1]).toMatchObject({ events: [{ uid: 'ok' }, { uid: 'ok' }] });
  });
});
