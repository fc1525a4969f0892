import { CALENDAR_READ_LIMITS } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { bookingUid, MAX_INSTANCES_PER_EVENT, parseIcs, readIcsText, toIcs } from './ics.ts';

const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

// The US Eastern rules under a name Intl does not know, so only the file's VTIMEZONE can resolve it.
const SALON_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Salon Eastern',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'TZNAME:EDT',
  'DTSTART:19700308T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'TZNAME:EST',
  'DTSTART:19701101T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const window = (from: string, to: string, defaultTimeZone?: string) => ({
  from: new Date(from),
  to: new Date(to),
  defaultTimeZone,
});
const iso = (events: { start: Date }[]) => events.map((e) => e.start.toISOString());

describe('parseIcs', () => {
  it('reads a timed event with its title, end, status and attendees, and skips all-day events', () => {
    const text = calendar(
      ...vevent(
        'UID:cut-1',
        'DTSTART:20261201T150000Z',
        'DTEND:20261201T160000Z',
        'SUMMARY:Cut – Priya',
        'STATUS:TENTATIVE',
        'ORGANIZER:mailto:owner@salon.test',
        'ATTENDEE;PARTSTAT=ACCEPTED:mailto:owner@salon.test',
        'ATTENDEE;PARTSTAT=NEEDS-ACTION:mailto:ana@example.test',
        'ATTENDEE;PARTSTAT=DECLINED:mailto:bo@example.test',
      ),
      ...vevent('UID:holiday', 'DTSTART;VALUE=DATE:20261201', 'DTEND;VALUE=DATE:20261202', 'SUMMARY:Closed'),
    );
    const events = parseIcs(text, window('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'));
    expect(events).toEqual([
      {
        uid: 'cut-1',
        recurrenceId: null,
        start: new Date('2026-12-01T15:00:00Z'),
        end: new Date('2026-12-01T16:00:00Z'),
        title: 'Cut – Priya',
        status: 'tentative',
        attendees: 1,
        ours: false,
      },
    ]);
  });

  it('keeps only events overlapping [from, to) and reads DURATION when there is no DTEND', () => {
    const text = calendar(
      ...vevent('UID:before', 'DTSTART:20261201T080000Z', 'DTEND:20261201T090000Z'),
      ...vevent('UID:overlapping', 'DTSTART:20261201T093000Z', 'DURATION:PT1H'),
      ...vevent('UID:after', 'DTSTART:20261201T120000Z', 'DTEND:20261201T130000Z'),
    );
    const events = parseIcs(text, window('2026-12-01T10:00:00Z', '2026-12-01T12:00:00Z'));
    expect(events.map((e) => [e.uid, e.end.toISOString()])).toEqual([
      ['overlapping', '2026-12-01T10:30:00.000Z'],
    ]);
  });

  it("reads TZID times by the file's VTIMEZONE, across the day daylight saving ends", () => {
    // 1 Nov 2026 is the first Sunday of November: 10:00 is 14:00Z the week before and 15:00Z from then on.
    const text = calendar(
      ...SALON_ZONE,
      ...vevent(
        'UID:weekly',
        'DTSTART;TZID=Salon Eastern:20261025T100000',
        'DTEND;TZID=Salon Eastern:20261025T110000',
        'RRULE:FREQ=WEEKLY;COUNT=3',
        'SUMMARY:Colour',
      ),
    );
    const events = parseIcs(text, window('2026-10-01T00:00:00Z', '2026-12-01T00:00:00Z'));
    expect(iso(events)).toEqual([
      '2026-10-25T14:00:00.000Z',
      '2026-11-01T15:00:00.000Z',
      '2026-11-08T15:00:00.000Z',
    ]);
    expect(events.map((e) => e.recurrenceId)).toEqual(iso(events));
    expect(events.every((e) => e.end.getTime() - e.start.getTime() === 3_600_000)).toBe(true);
  });

  it('reads a bare IANA TZID (no VTIMEZONE) with Intl, and floating times in the default time zone', () => {
    // Europe moves to summer time on 29 Mar 2026: 09:00 Berlin is 08:00Z, then 07:00Z.
    const text = calendar(
      ...vevent(
        'UID:daily',
        'DTSTART;TZID=Europe/Berlin:20260328T090000',
        'DURATION:PT30M',
        'RRULE:FREQ=DAILY;COUNT=2',
      ),
      ...vevent('UID:floating', 'DTSTART:20260328T090000', 'DTEND:20260328T100000'),
    );
    const events = parseIcs(text, window('2026-03-27T00:00:00Z', '2026-03-31T00:00:00Z', 'America/Chicago'));
    expect(events.map((e) => [e.uid, e.start.toISOString()])).toEqual([
      ['daily', '2026-03-28T08:00:00.000Z'],
      ['daily', '2026-03-29T07:00:00.000Z'],
      ['floating', '2026-03-28T14:00:00.000Z'],
    ]);
  });

  it('honours EXDATE and overridden instances (moved, retitled, cancelled) of a recurring event', () => {
    const text = calendar(
      ...vevent(
        'UID:standing',
        'DTSTART:20261201T150000Z',
        'DTEND:20261201T160000Z',
        'RRULE:FREQ=DAILY;COUNT=6',
        'EXDATE:20261202T150000Z',
        'SUMMARY:Standing cut',
        'ATTENDEE:mailto:ana@example.test',
      ),
      ...vevent(
        'UID:standing',
        'RECURRENCE-ID:20261203T150000Z',
        'DTSTART:20261203T170000Z',
        'DTEND:20261203T180000Z',
        'SUMMARY:Standing cut (late)',
      ),
      ...vevent(
        'UID:standing',
        'RECURRENCE-ID:20261204T150000Z',
        'DTSTART:20261204T150000Z',
        'DTEND:20261204T160000Z',
        'STATUS:CANCELLED',
        'SUMMARY:Standing cut',
      ),
    );
    const events = parseIcs(text, window('2026-12-01T00:00:00Z', '2026-12-06T00:00:00Z'));
    expect(
      events.map((e) => [
        e.recurrenceId?.slice(0, 13),
        e.start.toISOString().slice(0, 13),
        e.status,
        e.title,
        e.attendees,
      ]),
    ).toEqual([
      ['2026-12-01T15', '2026-12-01T15', 'confirmed', 'Standing cut', 1],
      ['2026-12-03T15', '2026-12-03T17', 'confirmed', 'Standing cut (late)', 0],
      ['2026-12-04T15', '2026-12-04T15', 'cancelled', 'Standing cut', 0],
      ['2026-12-05T15', '2026-12-05T15', 'confirmed', 'Standing cut', 1],
    ]);
  });

  it('finds an occurrence moved into the window from after it, and drops one moved out of it', () => {
    const text = calendar(
      ...vevent(
        'UID:weekly',
        'DTSTART:20261201T150000Z',
        'DTEND:20261201T160000Z',
        'RRULE:FREQ=WEEKLY;COUNT=3',
      ),
      ...vevent(
        'UID:weekly',
        'RECURRENCE-ID:20261215T150000Z',
        'DTSTART:20261202T150000Z',
        'DTEND:20261202T160000Z',
      ),
      ...vevent(
        'UID:weekly',
        'RECURRENCE-ID:20261201T150000Z',
        'DTSTART:20261220T150000Z',
        'DTEND:20261220T160000Z',
      ),
    );
    const events = parseIcs(text, window('2026-12-01T00:00:00Z', '2026-12-08T00:00:00Z'));
    expect(events.map((e) => [e.recurrenceId, e.start.toISOString()])).toEqual([
      ['2026-12-15T15:00:00.000Z', '2026-12-02T15:00:00.000Z'],
    ]);
  });

  it('expands an endless rule up to the window end and at most MAX_INSTANCES_PER_EVENT instances', () => {
    const text = calendar(
      ...vevent('UID:hourly', 'DTSTART:20261201T000000Z', 'DURATION:PT15M', 'RRULE:FREQ=HOURLY'),
      ...vevent('UID:early', 'DTSTART:19900101T000000Z', 'DURATION:PT15M', 'RRULE:FREQ=HOURLY'),
    );
    const read = readIcsText(text, window('2026-12-01T00:00:00Z', '2026-12-03T00:00:00Z'));
    expect(read.events.filter((e) => e.uid === 'hourly')).toHaveLength(48);
    // Decades of hours before the window: the walk stops at its bound instead of running on, and says so.
    expect(read.events.filter((e) => e.uid === 'early')).toEqual([]);
    expect(read.skipped).toEqual([{ uid: 'early', title: '', reason: 'starts-too-early' }]);
    const dense = readIcsText(
      calendar(
        ...vevent('UID:h', 'SUMMARY:Desk', 'DTSTART:20261201T000000Z', 'DURATION:PT15M', 'RRULE:FREQ=HOURLY'),
      ),
      window('2026-12-01T00:00:00Z', '2027-02-01T00:00:00Z'),
    );
    expect(dense.events).toHaveLength(MAX_INSTANCES_PER_EVENT);
    expect(dense.events.at(-1)?.start.toISOString()).toBe('2026-12-21T19:00:00.000Z');
    expect(dense.skipped).toEqual([{ uid: 'h', title: 'Desk', reason: 'too-many-occurrences' }]);
  });

  it('does not expand a rule that repeats every second or minute (issue 38), and names it', () => {
    const started = performance.now();
    const read = readIcsText(
      calendar(
        ...vevent(
          'UID:spin',
          'SUMMARY:Spin',
          'DTSTART:20261201T000000Z',
          'DURATION:PT1M',
          'RRULE:FREQ=SECONDLY;BYSECOND=60',
        ),
        ...vevent('UID:m', 'DTSTART:19700101T000000Z', 'DURATION:PT1M', 'RRULE:FREQ=MINUTELY'),
        ...vevent('UID:cut', 'SUMMARY:Cut', 'DTSTART:20261201T100000Z', 'DURATION:PT1H'),
      ),
      window('2026-12-01T00:00:00Z', '2026-12-03T00:00:00Z'),
    );
    expect(read.events.map((e) => e.uid)).toEqual(['cut']);
    expect(read.skipped).toEqual([
      { uid: 'spin', title: 'Spin', reason: 'repeats-too-often' },
      { uid: 'm', title: '', reason: 'repeats-too-often' },
    ]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('takes control characters out of titles (a NUL would make every save of the feed fail)', () => {
    const [event] = parseIcs(
      calendar(
        ...vevent('UID:nul', 'SUMMARY:Cut\u0000 \u001b[31mJo', 'DTSTART:20261201T100000Z', 'DURATION:PT1H'),
      ),
      window('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'),
    );
    expect(event?.title).toBe('Cut   [31mJo');
  });

  it('reads at most CALENDAR_READ_LIMITS.eventsPerFeed events of a feed, and says so', () => {
    const many = Array.from({ length: CALENDAR_READ_LIMITS.eventsPerFeed + 3 }, (_, i) =>
      vevent(`UID:e${i}`, `SUMMARY:E${i}`, 'DTSTART:20261201T100000Z', 'DURATION:PT1H').join('\r\n'),
    ).join('\r\n');
    const read = readIcsText(calendar(many), window('2026-12-01T00:00:00Z', '2026-12-03T00:00:00Z'));
    expect(read.events).toHaveLength(CALENDAR_READ_LIMITS.eventsPerFeed);
    expect(read.skipped).toEqual([
      {
        uid: `e${CALENDAR_READ_LIMITS.eventsPerFeed}`,
        title: `E${CALENDAR_READ_LIMITS.eventsPerFeed}`,
        reason: 'too-many-events',
      },
    ]);
  });

  it('reads a changed occurrence sent alone (a CalDAV object with only the RECURRENCE-ID)', () => {
    const text = calendar(
      ...vevent(
        'UID:alone',
        'RECURRENCE-ID:20261201T150000Z',
        'DTSTART:20261201T150000Z',
        'DURATION:PT1H',
        'STATUS:CANCELLED',
      ),
    );
    const [event] = parseIcs(text, window('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'));
    expect(event).toMatchObject({
      uid: 'alone',
      recurrenceId: '2026-12-01T15:00:00.000Z',
      status: 'cancelled',
    });
  });
});

describe('toIcs', () => {
  const booking = {
    openingId: '0b6f3c1e-8a52-4d2e-9a57-5c1a3f0e7d21',
    start: new Date('2026-12-01T15:30:00Z'),
    end: new Date('2026-12-01T16:15:00Z'),
    customerName: 'Ana López, Jr.; VIP',
    customerPhone: '+15551234567',
    serviceName: 'Cut',
    now: new Date('2026-11-30T12:00:00Z'),
  };

  it('writes a VEVENT that reads back as ours, with the customer in the title and description', () => {
    const text = toIcs(booking);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(text).toContain(`X-WAITLIST-OPENING:${booking.openingId}`);
    expect(text).toContain(`UID:${bookingUid(booking.openingId)}`);
    const [event] = parseIcs(text, window('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'));
    expect(event).toEqual({
      uid: bookingUid(booking.openingId),
      recurrenceId: null,
      start: booking.start,
      end: booking.end,
      title: 'Cut – Ana López, Jr.; VIP (+15551234567)',
      status: 'confirmed',
      attendees: 0,
      ours: true,
    });
    // Commas and semicolons in the name are escaped, so they cannot end the text value early.
    expect(text).toContain('Ana López\\, Jr.\\; VIP');
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toMatch(
      /DESCRIPTION:Booked from the waitlist\.\\nCustomer: Ana López\\, Jr\.\\; VIP\\nPhone: \+15551234567/,
    );
  });

  it('writes a plain title without a service', () => {
    const [event] = parseIcs(toIcs({ ...booking, serviceName: null, customerName: 'Bo' }), {
      from: booking.start,
      to: booking.end,
    });
    expect(event?.title).toBe('Bo (+15551234567)');
  });
});
