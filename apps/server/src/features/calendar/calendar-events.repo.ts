import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { calendarConnections, calendarEvents } from '../../db/schema.ts';
import { type CalendarEvent, instanceKey } from './calendar-event.ts';

/**
 * The one home of `calendar_events` (decision 0008): what each connection held at its last read, the picture
 * the next read compares with (issue 29), written in short chunks of what changed (issue 38).
 */

/** An event as a sync saw it, with where it lives in the calendar (CalDAV href and ETag). */
export interface StoredEvent extends CalendarEvent {
  href: string | null;
  etag: string | null;
}

const fromEventRow = (row: typeof calendarEvents.$inferSelect): StoredEvent => ({
  uid: row.uid,
  recurrenceId: row.recurrenceId,
  start: row.startsAt,
  end: row.endsAt,
  title: row.title,
  status: row.status as StoredEvent['status'],
  attendees: row.attendees,
  ours: row.ours,
  href: row.href,
  etag: row.etag,
});

export async function eventsOf(executor: Executor, connectionId: string): Promise<StoredEvent[]> {
  const rows = await executor
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.connectionId, connectionId));
  return rows.map(fromEventRow);
}

/** The events of a business's calendars that overlap [from, to), for the day view. */
export function eventsBetween(executor: Executor, userId: string, from: Date, to: Date) {
  return executor
    .select({
      connectionId: calendarEvents.connectionId,
      title: calendarEvents.title,
      startsAt: calendarEvents.startsAt,
      endsAt: calendarEvents.endsAt,
      ours: calendarEvents.ours,
      status: calendarEvents.status,
    })
    .from(calendarEvents)
    .innerJoin(calendarConnections, eq(calendarConnections.id, calendarEvents.connectionId))
    .where(
      and(
        eq(calendarConnections.userId, userId),
        lt(calendarEvents.startsAt, to),
        gt(calendarEvents.endsAt, from),
        sql`${calendarEvents.status} <> 'cancelled'`,
      ),
    )
    .orderBy(asc(calendarEvents.startsAt));
}

/** Replaces what a connection's last sync saw with `events` (inside the sync's transaction). */
const eventRowOf = (connectionId: string, key: string, event: StoredEvent) => ({
  connectionId,
  instanceKey: key,
  uid: event.uid,
  recurrenceId: event.recurrenceId,
  href: event.href,
  etag: event.etag,
  title: event.title.slice(0, 500),
  startsAt: event.start,
  endsAt: event.end,
  status: event.status,
  attendees: event.attendees,
  ours: event.ours,
});

/** Whether two readings of one instance would store the same row. */
const sameEvent = (a: StoredEvent, b: StoredEvent) =>
  a.start.getTime() === b.start.getTime() &&
  a.end.getTime() === b.end.getTime() &&
  a.title.slice(0, 500) === b.title.slice(0, 500) &&
  a.status === b.status &&
  a.attendees === b.attendees &&
  a.ours === b.ours &&
  a.href === b.href &&
  a.etag === b.etag;

/** Rows per statement and per transaction: each is short, so one calendar never holds the database long. */
const EVENT_CHUNK = 100;
/**
 * Lets timers and sockets run between two chunks: PGlite answers on this thread, and a chain of its answers
 * runs as one stretch of promise callbacks that nothing else gets between.
 */
const breathe = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Stores `after` as the connection's events, given what it stored before: only the instances that changed
 * are deleted and written (an unchanged calendar of 2,000 instances rewrote them all every 45 s), 100 rows per
 * statement with a breath between (issue 38). PGlite runs on this thread and one transaction holds it whole: 2,000 rows in one
 * held every other tenant's request, `/health` included, for seconds. The rows are the picture the next read
 * compares with, not a record: a crash between two chunks leaves a picture the next read mends (an instance
 * seen again as new proposes nothing, and a proposal is made once per instance and start: insertProposals).
 */
export async function replaceEvents(
  db: Database,
  connectionId: string,
  after: readonly StoredEvent[],
  before: readonly StoredEvent[],
) {
  const unique = new Map(after.map((event) => [instanceKey(event), event]));
  const stored = new Map(before.map((event) => [instanceKey(event), event]));
  const gone = [...stored.keys()].filter((key) => {
    const now = unique.get(key);
    return !now || !sameEvent(now, stored.get(key)!);
  });
  const fresh = [...unique].filter(([key, event]) => {
    const was = stored.get(key);
    return !was || !sameEvent(was, event);
  });
  for (let at = 0; at < gone.length; at += EVENT_CHUNK) {
    if (at > 0) await breathe();
    const keys = gone.slice(at, at + EVENT_CHUNK);
    await db
      .delete(calendarEvents)
      .where(and(eq(calendarEvents.connectionId, connectionId), inArray(calendarEvents.instanceKey, keys)));
  }
  for (let at = 0; at < fresh.length; at += EVENT_CHUNK) {
    await breathe();
    const rows = fresh
      .slice(at, at + EVENT_CHUNK)
      .map(([key, event]) => eventRowOf(connectionId, key, event));
    // A row the picture did not know of (a crash between two chunks of an earlier write) is taken as read now.
    await db
      .insert(calendarEvents)
      .values(rows)
      .onConflictDoUpdate({
        target: [calendarEvents.connectionId, calendarEvents.instanceKey],
        set: {
          uid: sql`excluded.uid`,
          recurrenceId: sql`excluded.recurrence_id`,
          href: sql`excluded.href`,
          etag: sql`excluded.etag`,
          title: sql`excluded.title`,
          startsAt: sql`excluded.starts_at`,
          endsAt: sql`excluded.ends_at`,
          status: sql`excluded.status`,
          attendees: sql`excluded.attendees`,
          ours: sql`excluded.ours`,
        },
      });
  }
}
