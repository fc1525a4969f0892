import { CALENDAR_READ_LIMITS, type CalendarSkipReason } from '@waitlist/contract';
import ICAL from 'ical.js';
import { zonedToUtc } from '../../lib/time-zone.ts';
import { type CalendarEvent, OURS_PROPERTY } from './calendar-event.ts';

/** At most this many instances of one recurring event inside the window (the rest skipped, the owner told)… */
export const MAX_INSTANCES_PER_EVENT = CALENDAR_READ_LIMITS.occurrencesPerEvent;
/** …and at most this many occurrences walked from DTSTART to reach it (an hourly rule from 1990 stops here)… */
const MAX_OCCURRENCES_WALKED = 20_000;
/** …and at most this many walked for the whole feed (20 such rules cost 20 × 20,000 steps otherwise). */
const MAX_WALKED_PER_FEED = 200_000;
/** Rules that repeat faster than this are no appointment, and the ones that make ical.js spin (BYSECOND=60). */
const TOO_FREQUENT = new Set(['SECONDLY', 'MINUTELY']);

/** An event a read left out, and why: what the owner is told (calendarSkipMessages). */
export interface SkippedEvent {
  uid: string;
  /** The event's title, cut to 80 characters: shown to the owner only, never texted. */
  title: string;
  reason: CalendarSkipReason;
}

/** What parsing found: the instances, and the events left out. */
export interface IcsRead {
  events: CalendarEvent[];
  skipped: SkippedEvent[];
}

export interface IcsBounds {
  /** UIDs not to expand at all (a rule that ran out of time at an earlier read): skipped as `too-slow`. */
  skipUids?: ReadonlySet<string>;
  /**
   * Told of each repeating event before it is expanded (and with '' after), so whoever runs this can name
   * the one that never returns.
   */
  onEvent?: (uid: string, title: string) => void;
}

export interface IcsWindow {
  from: Date;
  to: Date;
  /** Where a floating time (no TZID, no Z) or an unknown TZID is read: the business's time zone. */
  defaultTimeZone?: string;
}

type IcalTime = InstanceType<typeof ICAL.Time>;
type IcalEvent = InstanceType<typeof ICAL.Event>;
type IcalComponent = InstanceType<typeof ICAL.Component>;

function isIanaZone(name: string | null | undefined): name is string {
  if (!name) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The instant of an ical.js time. A time in UTC or in a zone the file defines (VTIMEZONE) converts itself;
 * a floating time, or one whose TZID the file does not define (non-compliant feeds send "Europe/Berlin"
 * bare), is read as wall-clock time in `fallbackZone` (that TZID when Intl knows it: zoneOf) with Intl.
 */
function toInstant(time: IcalTime, fallbackZone: string): Date {
  const tzid = time.zone?.tzid;
  if (tzid && tzid !== 'floating' && time.zone !== ICAL.Timezone.localTimezone) return time.toJSDate();
  const wall = zonedToUtc(
    { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute },
    fallbackZone,
  );
  return new Date(wall.getTime() + time.second * 1000);
}

/**
 * A title as stored and shown: control characters (NUL, which PostgreSQL text refuses, escape sequences) taken
 * out, so a feed cannot make its own save fail at every read.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed.
const plainText = (text: string) => text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');

function statusOf(component: IcalComponent): CalendarEvent['status'] {
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  if (status === 'CANCELLED') return 'cancelled';
  if (status === 'TENTATIVE') return 'tentative';
  return 'confirmed';
}

/** Attendees who have not declined; the organizer, often listed as an attendee too, does not count. */
function attendeesOf(component: IcalComponent): number {
  const organizer = String(component.getFirstPropertyValue('organizer') ?? '').toLowerCase();
  return component.getAllProperties('attendee').filter((attendee) => {
    const partstat = String(attendee.getParameter('partstat') ?? '').toUpperCase();
    const address = String(attendee.getFirstValue() ?? '').toLowerCase();
    return partstat !== 'DECLINED' && (organizer === '' || address !== organizer);
  }).length;
}

function instance(
  item: IcalEvent,
  master: IcalEvent,
  times: { start: Date; end: Date; recurrenceId: string | null },
): CalendarEvent {
  const component = item.component;
  return {
    uid: master.uid,
    recurrenceId: times.recurrenceId,
    start: times.start,
    end: times.end.getTime() < times.start.getTime() ? times.start : times.end,
    title: plainText(String(component.getFirstPropertyValue('summary') ?? '')),
    status: statusOf(master.component) === 'cancelled' ? 'cancelled' : statusOf(component),
    attendees: attendeesOf(component),
    ours: [component, master.component].some((c) => c.hasProperty(OURS_PROPERTY.toLowerCase())),
  };
}

const overlaps = (event: CalendarEvent, window: IcsWindow) =>
  event.start.getTime() < window.to.getTime() && event.end.getTime() > window.from.getTime();

function zoneOf(event: IcalEvent, defaultZone: string): string {
  const tzid = event.component.getFirstProperty('dtstart')?.getParameter('tzid');
  return isIanaZone(typeof tzid === 'string' ? tzid : null) ? (tzid as string) : defaultZone;
}

/** How a recurring event's expansion went: its instances, and why it stopped early (if it did). */
interface Expansion {
  found: CalendarEvent[];
  stopped?: CalendarSkipReason;
}

function expandRecurring(
  master: IcalEvent,
  window: IcsWindow,
  defaultZone: string,
  budget: { walked: number },
): Expansion {
  const zone = zoneOf(master, defaultZone);
  const found: CalendarEvent[] = [];
  const iterator = master.iterator();
  let walked = 0;
  let reached = false;
  for (let next = iterator.next(); next; next = iterator.next()) {
    walked += 1;
    budget.walked += 1;
    if (walked > MAX_OCCURRENCES_WALKED || budget.walked > MAX_WALKED_PER_FEED)
      return { found, ...(reached ? {} : { stopped: 'starts-too-early' as const }) };
    const originalStart = toInstant(next, zone);
    if (originalStart.getTime() >= window.to.getTime()) break;
    const details = master.getOccurrenceDetails(next);
    if (details.item.startDate.isDate) continue;
    const event = instance(details.item, master, {
      recurrenceId: originalStart.toISOString(),
      start: toInstant(details.startDate, zone),
      end: toInstant(details.endDate, zone),
    });
    if (event.end.getTime() > window.from.getTime()) reached = true;
    if (overlaps(event, window)) found.push(event);
    if (found.length >= MAX_INSTANCES_PER_EVENT) return { found, stopped: 'too-many-occurrences' };
  }
  // An occurrence due after the window but moved into it (RECURRENCE-ID later than `to`).
  for (const exception of Object.values(master.exceptions) as IcalEvent[]) {
    const originalStart = toInstant(exception.recurrenceId, zone);
    if (originalStart.getTime() < window.to.getTime() || exception.startDate.isDate) continue;
    const event = instance(exception, master, {
      recurrenceId: originalStart.toISOString(),
      start: toInstant(exception.startDate, zone),
      end: toInstant(exception.endDate, zone),
    });
    if (overlaps(event, window) && found.length < MAX_INSTANCES_PER_EVENT) found.push(event);
  }
  return { found };
}

/** The frequencies of an event's repeat rules (RRULE), upper-case. */
const frequenciesOf = (event: IcalEvent) =>
  event.component
    .getAllProperties('rrule')
    .map((rule) => String((rule.getFirstValue() as { freq?: string } | null)?.freq ?? '').toUpperCase());

const titleOf = (component: IcalComponent) =>
  plainText(String(component.getFirstPropertyValue('summary') ?? '')).slice(0, 80);

function rootComponents(text: string): IcalComponent[] {
  const parsed = ICAL.parse(text) as unknown[];
  // One VCALENDAR parses to ['vcalendar', …]; several concatenated ones to a list of those.
  const list = typeof parsed[0] === 'string' ? [parsed] : parsed;
  return list.map((jcal) => new ICAL.Component(jcal as ConstructorParameters<typeof ICAL.Component>[0]));
}

/**
 * The timed event instances in `text` (one or more VCALENDARs) that overlap [from, to): recurring events
 * expanded (EXDATE, RDATE and overridden instances honoured), all-day events skipped (they are not bookable
 * slots), time zones from the file's VTIMEZONEs. Bounded (issue 38): a rule that repeats every second or
 * minute is not expanded, one event yields at most MAX_INSTANCES_PER_EVENT instances, the feed at most
 * CALENDAR_READ_LIMITS.eventsPerFeed events, and each event left out is named in `skipped`. A rule that makes
 * ical.js spin inside one step cannot be bounded here: the caller runs this in a worker with a time limit
 * (ics-parser.ts), and `onEvent` tells it which event was being worked on.
 */
export function readIcsText(text: string, window: IcsWindow, bounds: IcsBounds = {}): IcsRead {
  const defaultZone = isIanaZone(window.defaultTimeZone) ? window.defaultTimeZone : 'UTC';
  const events: CalendarEvent[] = [];
  const skipped: SkippedEvent[] = [];
  const budget = { walked: 0 };
  let seen = 0;
  for (const root of rootComponents(text)) {
    const components = root.getAllSubcomponents('vevent');
    if (seen + components.length > CALENDAR_READ_LIMITS.eventsPerFeed) {
      const over = components[Math.max(0, CALENDAR_READ_LIMITS.eventsPerFeed - seen)];
      skipped.push({
        uid: String(over?.getFirstPropertyValue('uid') ?? ''),
        title: over ? titleOf(over) : '',
        reason: 'too-many-events',
      });
      components.length = Math.max(0, CALENDAR_READ_LIMITS.eventsPerFeed - seen);
    }
    seen += components.length;
    // `exceptions: []`: ical.js otherwise scans every sibling event for its exceptions, once per event (20,000
    // events took minutes); they are related below, once each.
    const vevents = components.map((component) => new ICAL.Event(component, { exceptions: [] }));
    const masters = new Map<string, IcalEvent>();
    for (const event of vevents) if (!event.isRecurrenceException()) masters.set(event.uid, event);
    for (const event of vevents) {
      const master = masters.get(event.uid);
      if (event.isRecurrenceException() && master) master.relateException(event);
    }
    for (const event of vevents) {
      const isOrphanException = event.isRecurrenceException() && !masters.has(event.uid);
      if (event.isRecurrenceException() && !isOrphanException) continue;
      if (events.length >= CALENDAR_READ_LIMITS.eventsPerFeed) {
        // As many instances as a feed may hold events: the rest is not read (200,000 walked steps at most).
        skipped.push({ uid: event.uid, title: titleOf(event.component), reason: 'too-many-events' });
        break;
      }
      if (event.isRecurring() && !isOrphanException) {
        const title = titleOf(event.component);
        const skip = (reason: CalendarSkipReason) => skipped.push({ uid: event.uid, title, reason });
        if (bounds.skipUids?.has(event.uid)) {
          skip('too-slow');
          continue;
        }
        if (frequenciesOf(event).some((freq) => TOO_FREQUENT.has(freq))) {
          skip('repeats-too-often');
          continue;
        }
        bounds.onEvent?.(event.uid, title);
        const expansion = expandRecurring(event, window, defaultZone, budget);
        bounds.onEvent?.('', '');
        events.push(...expansion.found);
        if (expansion.stopped) skip(expansion.stopped);
        continue;
      }
      if (event.startDate.isDate) continue;
      const zone = zoneOf(event, defaultZone);
      const one = instance(event, event, {
        recurrenceId: isOrphanException ? toInstant(event.recurrenceId, zone).toISOString() : null,
        start: toInstant(event.startDate, zone),
        end: toInstant(event.endDate, zone),
      });
      if (overlaps(one, window)) events.push(one);
    }
  }
  return { events, skipped };
}

/** The instances of `text` over `window` (readIcsText without what was skipped): tests and one-off reads. */
export const parseIcs = (text: string, window: IcsWindow): CalendarEvent[] =>
  readIcsText(text, window).events;

export interface CalendarBooking {
  openingId: string;
  start: Date;
  end: Date;
  customerName: string;
  /** E.164. */
  customerPhone: string;
  /** The service booked ("Cut"), when the opening has one. */
  serviceName?: string | null;
  /** DTSTAMP. */
  now: Date;
}

/** The UID of the event we write for an opening: the same opening always writes the same event. */
export const bookingUid = (openingId: string) => `waitlist-opening-${openingId}@waitlist-and-text`;

const utc = (instant: Date) => ICAL.Time.fromJSDate(instant, true);

/** The VCALENDAR (one VEVENT) we write into the owner's calendar when a customer claims an opening. */
export function toIcs(booking: CalendarBooking): string {
  const calendar = new ICAL.Component('vcalendar');
  calendar.updatePropertyWithValue('prodid', '-//Waitlist & Text//Calendar booking//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  const vevent = new ICAL.Component('vevent');
  vevent.updatePropertyWithValue('uid', bookingUid(booking.openingId));
  vevent.updatePropertyWithValue('dtstamp', utc(booking.now));
  vevent.updatePropertyWithValue('dtstart', utc(booking.start));
  vevent.updatePropertyWithValue('dtend', utc(booking.end));
  const what = booking.serviceName ? `${booking.serviceName} – ` : '';
  vevent.updatePropertyWithValue('summary', `${what}${booking.customerName} (${booking.customerPhone})`);
  vevent.updatePropertyWithValue(
    'description',
    `Booked from the waitlist.\nCustomer: ${booking.customerName}\nPhone: ${booking.customerPhone}`,
  );
  vevent.updatePropertyWithValue('status', 'CONFIRMED');
  vevent.updatePropertyWithValue(OURS_PROPERTY.toLowerCase(), booking.openingId);
  calendar.addSubcomponent(vevent);
  return calendar.toString();
}
