/**
 * The one shape every calendar provider (CalDAV, ICS feed, later Google and Microsoft) produces: one timed
 * instance of an event. A recurring event yields one per occurrence, told apart by `recurrenceId`.
 */
export interface CalendarEvent {
  uid: string;
  /** The occurrence's original start as an ISO UTC string (RECURRENCE-ID); null for a one-off event. */
  recurrenceId: string | null;
  start: Date;
  end: Date;
  title: string;
  status: 'confirmed' | 'tentative' | 'cancelled';
  /** Attendees who have not declined, the organizer not counted. */
  attendees: number;
  /** Written by this app (it carries OURS_PROPERTY): never read back as a cancellation. */
  ours: boolean;
}

/** The property we put on every event we write, valued with the opening's id. */
export const OURS_PROPERTY = 'X-WAITLIST-OPENING';

/**
 * One instance of one event: what a cancellation or a move is reported against, and the key it is stored
 * under. The separator is U+001F (unit separator): a UID never holds it, and PostgreSQL text takes it (not NUL).
 */
export const instanceKey = (event: Pick<CalendarEvent, 'uid' | 'recurrenceId'>) =>
  `${event.uid}\u001f${event.recurrenceId ?? ''}`;
