import { and, asc, eq, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { calendarBookings, calendarConnections } from '../../db/schema.ts';

/**
 * The one home of `calendar_bookings` (issue 29): the claimed slots to be written into (or removed from) each
 * calendar a business writes to, taken by one instance at a time and retried until the calendar has them.
 */
export type BookingRow = typeof calendarBookings.$inferSelect;

/**
 * What a claimed (or released) opening wants in each calendar the business writes to: 'booked' or 'removed',
 * to be done by the worker (a row already there takes the new wish and is tried again at once).
 */
export async function wantBookings(
  executor: Executor,
  input: { userId: string; openingId: string; uid: string; wanted: 'booked' | 'removed'; now: Date },
) {
  const writers = await executor
    .select({ id: calendarConnections.id })
    .from(calendarConnections)
    .where(
      and(
        eq(calendarConnections.userId, input.userId),
        sql`${calendarConnections.kind} <> 'ics'`,
        // A consent the owner has not confirmed yet is written nothing (issue 38).
        sql`${calendarConnections.status} <> 'pending'`,
      ),
    );
  if (writers.length === 0) return 0;
  await executor
    .insert(calendarBookings)
    .values(
      writers.map(({ id }) => ({
        openingId: input.openingId,
        connectionId: id,
        uid: input.uid,
        wanted: input.wanted,
        nextAttemptAt: input.now,
        createdAt: input.now,
      })),
    )
    .onConflictDoUpdate({
      target: [calendarBookings.openingId, calendarBookings.connectionId],
      set: { wanted: input.wanted, done: false, attempts: 0, nextAttemptAt: input.now, lastError: null },
    });
  return writers.length;
}

/** Up to `limit` bookings due, taken until `leaseUntil` (SKIP LOCKED while choosing): one instance writes each. */
export function leaseDueBookings(executor: Executor, now: Date, leaseUntil: Date, limit: number) {
  const due = executor
    .select({ openingId: calendarBookings.openingId, connectionId: calendarBookings.connectionId })
    .from(calendarBookings)
    .where(and(eq(calendarBookings.done, false), lte(calendarBookings.nextAttemptAt, now)))
    .orderBy(asc(calendarBookings.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return executor
    .update(calendarBookings)
    .set({ nextAttemptAt: leaseUntil, attempts: sql`${calendarBookings.attempts} + 1` })
    .where(sql`(${calendarBookings.openingId}, ${calendarBookings.connectionId}) in (${due})`)
    .returning();
}

/** Records a booking's attempt: done (with where the event is now), or failed and when to try again. */
export function settleBooking(
  executor: Executor,
  booking: Pick<BookingRow, 'openingId' | 'connectionId' | 'wanted'>,
  values: Partial<Pick<BookingRow, 'done' | 'href' | 'etag' | 'nextAttemptAt' | 'lastError'>>,
) {
  return executor
    .update(calendarBookings)
    .set(values)
    .where(
      and(
        eq(calendarBookings.openingId, booking.openingId),
        eq(calendarBookings.connectionId, booking.connectionId),
        // A wish changed meanwhile (booked → removed) is not marked done by the older attempt.
        eq(calendarBookings.wanted, booking.wanted),
      ),
    );
}
