import { type CalendarEvent, instanceKey } from './calendar-event.ts';
import { isExcludedTitle } from './title-rules.ts';

export interface ChangeOptions {
  now: Date;
  /** Only events starting within this many days of `now` count (the owner's horizon; default 7 upstream). */
  horizonDays: number;
  /** Words that keep an event out ("Lunch", "Blocked"): whole word, any case or accents. */
  exclude: readonly string[];
}

export interface CalendarChanges {
  /** The events as they were before they were deleted, cancelled or lost their attendees. */
  cancellations: CalendarEvent[];
  /** Same uid and recurrenceId at a new start or end. */
  moves: { from: CalendarEvent; to: CalendarEvent }[];
}

const DAY_MS = 86_400_000;

/**
 * What changed between two reads of one calendar. Pure: state in, decision out.
 *
 * An instance (uid + recurrenceId) that was live before is a cancellation when it is now missing, marked
 * cancelled, or had attendees and now has none, provided it has not started and starts within the horizon.
 * The same instance at a new time is a move, never a cancellation. Events this app wrote (`ours`) and
 * excluded titles never count, and each instance is reported at most once.
 *
 * Read both lists over the same window, reaching past the horizon: an event moved beyond the window of
 * `after` would otherwise look deleted.
 */
export function detectChanges(
  before: readonly CalendarEvent[],
  after: readonly CalendarEvent[],
  options: ChangeOptions,
): CalendarChanges {
  const now = options.now.getTime();
  const horizonEnd = now + options.horizonDays * DAY_MS;
  const upcoming = (event: CalendarEvent) =>
    event.start.getTime() > now && event.start.getTime() <= horizonEnd;
  const counts = (event: CalendarEvent) => !event.ours && !isExcludedTitle(event.title, options.exclude);

  const afterByKey = new Map<string, CalendarEvent>();
  for (const event of after)
    if (!afterByKey.has(instanceKey(event))) afterByKey.set(instanceKey(event), event);

  const changes: CalendarChanges = { cancellations: [], moves: [] };
  const reported = new Set<string>();
  for (const was of before) {
    const key = instanceKey(was);
    if (reported.has(key) || was.status === 'cancelled' || !counts(was)) continue;
    const current = afterByKey.get(key);
    if (current && !counts(current)) continue;
    const cancelled =
      !current || current.status === 'cancelled' || (was.attendees > 0 && current.attendees === 0);
    if (cancelled) {
      if (!upcoming(was)) continue;
      reported.add(key);
      changes.cancellations.push(was);
    } else if (
      current.start.getTime() !== was.start.getTime() ||
      current.end.getTime() !== was.end.getTime()
    ) {
      if (!upcoming(was) && !upcoming(current)) continue;
      reported.add(key);
      changes.moves.push({ from: was, to: current });
    }
  }
  return changes;
}
