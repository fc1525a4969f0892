import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { localCalendarEvents } from '../../db/schema.ts';

/** One object of a business's local calendar (a tombstone when `deleted`). */
export type LocalCalendarRow = typeof localCalendarEvents.$inferSelect;

/**
 * The one home of `local_calendar_events`. Every write takes the business's advisory lock first, so two
 * writes of one business get consecutive `seq` values (the sync token) and a precondition (If-Match,
 * If-None-Match) is checked against the row the write replaces; PGlite and PostgreSQL both have the lock.
 */
export async function withCalendarLock<T>(
  db: Database,
  userId: string,
  write: (tx: Executor) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`local-calendar:${userId}`}))`);
    return write(tx);
  });
}

/** The business's live events (no tombstones), oldest change first. */
export async function listLiveEvents(executor: Executor, userId: string): Promise<LocalCalendarRow[]> {
  return executor
    .select()
    .from(localCalendarEvents)
    .where(and(eq(localCalendarEvents.userId, userId), eq(localCalendarEvents.deleted, false)))
    .orderBy(asc(localCalendarEvents.seq));
}

/** One event by its resource name, a tombstone included (the caller tells them apart). */
export async function findEvent(
  executor: Executor,
  userId: string,
  uid: string,
): Promise<LocalCalendarRow | undefined> {
  const [row] = await executor
    .select()
    .from(localCalendarEvents)
    .where(and(eq(localCalendarEvents.userId, userId), eq(localCalendarEvents.uid, uid)))
    .limit(1);
  return row;
}

/** The business's last change number (0 before the first): the current sync token and CTag. */
export async function latestSeq(executor: Executor, userId: string): Promise<number> {
  const [row] = await executor
    .select({ seq: localCalendarEvents.seq })
    .from(localCalendarEvents)
    .where(eq(localCalendarEvents.userId, userId))
    .orderBy(desc(localCalendarEvents.seq))
    .limit(1);
  return row?.seq ?? 0;
}

/** Every event (live or tombstone) changed after `seq`, in change order: what sync-collection reports. */
export async function changesSince(
  executor: Executor,
  userId: string,
  seq: number,
): Promise<LocalCalendarRow[]> {
  return executor
    .select()
    .from(localCalendarEvents)
    .where(and(eq(localCalendarEvents.userId, userId), gt(localCalendarEvents.seq, seq)))
    .orderBy(asc(localCalendarEvents.seq));
}

/** Writes (or revives) an event with the next `seq`. Call inside withCalendarLock. */
export async function upsertEvent(
  tx: Executor,
  event: { userId: string; uid: string; ics: string; etag: string; now: Date },
): Promise<number> {
  const seq = (await latestSeq(tx, event.userId)) + 1;
  await tx
    .insert(localCalendarEvents)
    .values({ ...event, seq, deleted: false, updatedAt: event.now })
    .onConflictDoUpdate({
      target: [localCalendarEvents.userId, localCalendarEvents.uid],
      set: { ics: event.ics, etag: event.etag, seq, deleted: false, updatedAt: event.now },
    });
  return seq;
}

/** Turns a live event into a tombstone with the next `seq`. Call inside withCalendarLock. */
export async function tombstoneEvent(tx: Executor, userId: string, uid: string, now: Date): Promise<number> {
  const seq = (await latestSeq(tx, userId)) + 1;
  await tx
    .update(localCalendarEvents)
    .set({ deleted: true, seq, updatedAt: now })
    .where(and(eq(localCalendarEvents.userId, userId), eq(localCalendarEvents.uid, uid)));
  return seq;
}

/** The businesses that have a local calendar (an event ever written), most recently changed first. */
export async function businessesWithEvents(executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ userId: localCalendarEvents.userId, last: sql<Date>`max(${localCalendarEvents.updatedAt})` })
    .from(localCalendarEvents)
    .groupBy(localCalendarEvents.userId)
    .orderBy(desc(sql`max(${localCalendarEvents.updatedAt})`))
    .limit(50);
  return rows.map((row) => row.userId);
}
