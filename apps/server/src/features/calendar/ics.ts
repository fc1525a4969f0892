import ICAL from 'ical.js';
import { zonedToUtc } from '../../lib/time-zone.ts';
import { type CalendarEvent, OURS_PROPERTY } from './calendar-event.ts';

/** At most this many instances of one recurring event inside the window… */
export const MAX_INSTANCES_PER_EVENT = 1000;
/** …and at most this many occurrences walked from DTSTART to reach it (a FREQ=MINUTELY from 1990 stops here). */
const MAX_OCCURRENCES_WALKED = 20_000;

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
    title: String(component.getFirstPropertyValue('summary') ?? ''),
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

function expandRecurring(master: IcalEvent, window: IcsWindow, defaultZone: string): CalendarEvent[] {
  const zone = zoneOf(master, defaultZone);
  const found: CalendarEvent[] = [];
  const iterator = master.iterator();
  let walked = 0;
  for (let next = iterator.next(); next && walked < MAX_OCCURRENCES_WALKED; next = iterator.next()) {
    walked += 1;
    const originalStart = toInstant(next, zone);
    if (originalStart.getTime() >= window.to.getTime()) break;
    const details = master.getOccurrenceDetails(next);
    if (details.item.startDate.isDate) continue;
    const event = instance(details.item, master, {
      recurrenceId: originalStart.toISOString(),
      start: toInstant(details.startDate, zone),
      end: toInstant(details.endDate, zone),
    });
    if (overlaps(event, window)) found.push(event);
    if (found.length >= MAX_INSTANCES_PER_EVENT) return found;
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
  return found;
}

function rootComponents(text: string): IcalComponent[] {
  const parsed = ICAL.parse(text) as unknown[];
  // One VCALENDAR parses to ['vcalendar', …]; several concatenated ones to a list of those.
  const list = typeof parsed[0] === 'string' ? [parsed] : parsed;
  return list.map((jcal) => new ICAL.Component(jcal as ConstructorParameters<typeof ICAL.Component>[0]));
}

/**
 * The timed event instances in `text` (one or more VCALENDARs) that overlap [from, to): recurring events
 * expanded (EXDATE, RDATE and overridden instances honoured; bounded by MAX_INSTANCES_PER_EVENT), all-day
 * events skipped (they are not bookable slots), time zones from the file's VTIMEZONEs.
 */
export function parseIcs(text: string, window: IcsWindow): CalendarEvent[] {
  const defaultZone = isIanaZone(window.defaultTimeZone) ? window.defaultTimeZone : 'UTC';
  const events: CalendarEvent[] = [];
  for (const root of rootComponents(text)) {
    const vevents = root.getAllSubcomponents('vevent').map((component) => new ICAL.Event(component));
    const masters = new Map<string, IcalEvent>();
    for (const event of vevents) if (!event.isRecurrenceException()) masters.set(event.uid, event);
    for (const event of vevents) {
      const master = masters.get(event.uid);
      if (event.isRecurrenceException() && master) master.relateException(event);
    }
    for (const event of vevents) {
      const isOrphanException = event.isRecurrenceException() && !masters.has(event.uid);
      if (event.isRecurrenceException() && !isOrphanException) continue;
      if (event.isRecurring() && !isOrphanException) {
        events.push(...expandRecurring(event, window, defaultZone));
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
  return events;
}

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
