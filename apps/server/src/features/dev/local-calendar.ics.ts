import { randomUUID } from 'node:crypto';
import ICAL from 'ical.js';
import { zonedToUtc } from '../../lib/time-zone.ts';

/**
 * The local calendar's own reading and writing of VCALENDAR text (ical.js): what the /dev/calendar page
 * shows of an event and the edits it makes. The calendar sync reads events with features/calendar/ics.ts;
 * this page needs only the event's own fields, so it does not expand recurrences.
 */

/**
 * The property the app puts on the events it writes (features/calendar/calendar-event.ts OURS_PROPERTY;
 * another feature's module, so it is named again here rather than imported).
 */
const OURS_PROPERTY = 'x-waitlist-opening';

type IcalComponent = InstanceType<typeof ICAL.Component>;
type IcalTime = InstanceType<typeof ICAL.Time>;

export interface LocalEventSummary {
  uid: string;
  title: string;
  start: Date;
  end: Date;
  status: 'confirmed' | 'tentative' | 'cancelled';
  attendees: string[];
  /** Written by the app (a claimed opening booked back): shown as "booked by Waitlist & Text". */
  ours: boolean;
  recurring: boolean;
}

/** The VCALENDAR's root component, or null when the text is not one holding a timed VEVENT. */
function parseCalendar(text: string): IcalComponent | null {
  try {
    const root = new ICAL.Component(ICAL.parse(text) as ConstructorParameters<typeof ICAL.Component>[0]);
    if (root.name !== 'vcalendar') return null;
    const event = masterOf(root);
    if (!event?.getFirstPropertyValue('dtstart')) return null;
    return root;
  } catch {
    return null;
  }
}

/** The event itself: the VEVENT without a RECURRENCE-ID (an overridden occurrence is not the event). */
function masterOf(root: IcalComponent): IcalComponent | undefined {
  const events = root.getAllSubcomponents('vevent');
  return events.find((event) => !event.hasProperty('recurrence-id')) ?? events[0];
}

/** True when `text` is one VCALENDAR with a VEVENT that has a start: what a PUT must carry. */
export const isCalendarObject = (text: string) => parseCalendar(text) !== null;

function instantOf(time: IcalTime, timeZone: string): Date {
  const tzid = time.zone?.tzid;
  if (tzid && tzid !== 'floating' && time.zone !== ICAL.Timezone.localTimezone) return time.toJSDate();
  // A floating time (or a TZID the file does not define) is wall-clock time in the business's zone.
  return zonedToUtc(
    { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute },
    timeZone,
  );
}

function statusOf(event: IcalComponent): LocalEventSummary['status'] {
  const status = String(event.getFirstPropertyValue('status') ?? '').toUpperCase();
  if (status === 'CANCELLED') return 'cancelled';
  if (status === 'TENTATIVE') return 'tentative';
  return 'confirmed';
}

/** What the page shows of one stored event; null for text that is not an event (never stored by a PUT). */
export function summarize(uid: string, text: string, timeZone: string): LocalEventSummary | null {
  const root = parseCalendar(text);
  const event = root && masterOf(root);
  if (!event) return null;
  const vevent = new ICAL.Event(event);
  const start = instantOf(vevent.startDate, timeZone);
  const end = vevent.endDate ? instantOf(vevent.endDate, timeZone) : start;
  return {
    uid,
    title: String(event.getFirstPropertyValue('summary') ?? ''),
    start,
    end: end.getTime() < start.getTime() ? start : end,
    status: statusOf(event),
    attendees: event.getAllProperties('attendee').map((attendee) => {
      const name = attendee.getParameter('cn');
      return String(name ?? attendee.getFirstValue() ?? '').replace(/^mailto:/i, '');
    }),
    ours: event.hasProperty(OURS_PROPERTY),
    recurring: event.hasProperty('rrule'),
  };
}

const utc = (instant: Date) => ICAL.Time.fromJSDate(instant, true);

export interface NewLocalEvent {
  title: string;
  start: Date;
  durationMinutes: number;
  attendee?: string | null;
  now: Date;
}

function attendeeAddress(name: string) {
  const local =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.|\.$/g, '') || 'guest';
  return `mailto:${local}@local-calendar.invalid`;
}

/** A new event as the page writes it: its resource name (also its UID) and its VCALENDAR text. */
export function newEvent(event: NewLocalEvent): { uid: string; ics: string } {
  const uid = `${randomUUID()}@local-calendar`;
  const calendar = new ICAL.Component('vcalendar');
  calendar.updatePropertyWithValue('prodid', '-//Waitlist & Text//Local calendar//EN');
  calendar.updatePropertyWithValue('version', '2.0');
  const vevent = new ICAL.Component('vevent');
  vevent.updatePropertyWithValue('uid', uid);
  vevent.updatePropertyWithValue('dtstamp', utc(event.now));
  vevent.updatePropertyWithValue('dtstart', utc(event.start));
  vevent.updatePropertyWithValue(
    'dtend',
    utc(new Date(event.start.getTime() + event.durationMinutes * 60_000)),
  );
  vevent.updatePropertyWithValue('summary', event.title);
  vevent.updatePropertyWithValue('status', 'CONFIRMED');
  vevent.updatePropertyWithValue('sequence', 0);
  if (event.attendee) {
    const attendee = vevent.addPropertyWithValue('attendee', attendeeAddress(event.attendee));
    attendee.setParameter('cn', event.attendee);
    attendee.setParameter('partstat', 'ACCEPTED');
  }
  calendar.addSubcomponent(vevent);
  return { uid, ics: calendar.toString() };
}

/** What the page and the JSON twin change on an event. */
export interface LocalEventEdit {
  /** Moves the event to this start, keeping its length. */
  startsAt?: Date;
  /** STATUS:CANCELLED. */
  cancel?: boolean;
  /** Removes every attendee. */
  removeAttendees?: boolean;
}

/** The event's text after `edit` (SEQUENCE and DTSTAMP bumped, as a calendar app does); null if not an event. */
export function editEvent(text: string, edit: LocalEventEdit, now: Date): string | null {
  const root = parseCalendar(text);
  const event = root && masterOf(root);
  if (!root || !event) return null;
  if (edit.startsAt) {
    const vevent = new ICAL.Event(event);
    const length = vevent.endDate
      ? vevent.endDate.toJSDate().getTime() - vevent.startDate.toJSDate().getTime()
      : 0;
    event.removeAllProperties('duration');
    event.updatePropertyWithValue('dtstart', utc(edit.startsAt));
    event.updatePropertyWithValue('dtend', utc(new Date(edit.startsAt.getTime() + Math.max(length, 0))));
  }
  if (edit.cancel) event.updatePropertyWithValue('status', 'CANCELLED');
  if (edit.removeAttendees) event.removeAllProperties('attendee');
  const sequence = Number(event.getFirstPropertyValue('sequence') ?? 0);
  event.updatePropertyWithValue('sequence', Number.isFinite(sequence) ? sequence + 1 : 1);
  event.updatePropertyWithValue('dtstamp', utc(now));
  return root.toString();
}
