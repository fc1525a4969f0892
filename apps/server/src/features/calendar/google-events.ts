import type { calendar_v3 } from '@googleapis/calendar';
import type { StoredEvent } from './calendar.repo.ts';
import { type CalendarEvent, instanceKey } from './calendar-event.ts';
import type { IcsWindow } from './ics.ts';

/** Google Calendar's events as the common calendar shape, and a sync token's changes merged into a read. */

/** The private extended property on every event we write, valued with the opening's id. */
export const GOOGLE_OURS_PROPERTY = 'waitlistOpening';

const GOOGLE_STATUSES: readonly string[] = ['confirmed', 'tentative', 'cancelled'];

/** One Google event instance as the common shape; null for all-day events (no time of day to open). */
export function toCalendarEvent(item: calendar_v3.Schema$Event): StoredEvent | null {
  if (!item.id || !item.start?.dateTime || !item.end?.dateTime) return null;
  const original = item.originalStartTime;
  if (original && !original.dateTime) return null;
  const attendees = (item.attendees ?? []).filter(
    (attendee) =>
      attendee.responseStatus !== 'declined' && !attendee.organizer && !attendee.self && !attendee.resource,
  ).length;
  return {
    uid: item.iCalUID ?? item.recurringEventId ?? item.id,
    recurrenceId: original?.dateTime ? new Date(original.dateTime).toISOString() : null,
    start: new Date(item.start.dateTime),
    end: new Date(item.end.dateTime),
    title: item.summary ?? '',
    status: (GOOGLE_STATUSES.includes(item.status ?? '')
      ? item.status
      : 'confirmed') as CalendarEvent['status'],
    attendees,
    ours: Boolean(item.extendedProperties?.private?.[GOOGLE_OURS_PROPERTY]),
    // The instance's own Google id: what a later change or deletion of it names.
    href: item.id,
    etag: item.etag ?? null,
  };
}

export const inWindow = (event: CalendarEvent, window: IcsWindow) =>
  event.end.getTime() > window.from.getTime() && event.start.getTime() < window.to.getTime();

/** The changes since the last read merged into it: a bare `cancelled` item (deleted) removes its instance. */
export function mergeGoogleChanges(
  before: readonly StoredEvent[],
  items: calendar_v3.Schema$Event[],
  window: IcsWindow,
) {
  const byId = new Map(before.map((event) => [event.href ?? instanceKey(event), event]));
  for (const item of items) {
    if (!item.id) continue;
    byId.delete(item.id);
    const event = toCalendarEvent(item);
    // A cancelled occurrence Google sends whole stays, marked cancelled; a deleted event comes bare and goes.
    if (event && inWindow(event, window)) byId.set(item.id, event);
  }
  return [...byId.values()];
}
