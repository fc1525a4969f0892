import { and, asc, eq, gte, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, openings, staffMembers } from '../../db/schema.ts';

/**
 * The openings as connected calendars see them (issue 29): a span of days for the owner's day view, and one
 * claimed opening as the booking written back into the calendar.
 */
/** The openings starting in [from, to), with who claimed each (the owner's day view, issue 29). */
export function openingsBetween(executor: Executor, userId: string, from: Date, to: Date) {
  return executor
    .select({
      id: openings.id,
      startsAt: openings.startsAt,
      durationMinutes: openings.durationMinutes,
      service: openings.service,
      status: openings.status,
      claimedBy: customers.name,
    })
    .from(openings)
    .leftJoin(customers, eq(customers.id, openings.winnerCustomerId))
    .where(and(eq(openings.userId, userId), gte(openings.startsAt, from), lt(openings.startsAt, to)))
    .orderBy(asc(openings.startsAt));
}

/**
 * A claimed opening as its calendar booking reads: when, how long, what, with whom, and who (undefined: no
 * such opening).
 */
export async function bookingOf(executor: Executor, openingId: string) {
  const [row] = await executor
    .select({
      startsAt: openings.startsAt,
      durationMinutes: openings.durationMinutes,
      service: openings.service,
      staffName: staffMembers.name,
      status: openings.status,
      customerName: customers.name,
      customerPhone: customers.phone,
    })
    .from(openings)
    .leftJoin(customers, eq(customers.id, openings.winnerCustomerId))
    .leftJoin(staffMembers, eq(staffMembers.id, openings.staffId))
    .where(eq(openings.id, openingId));
  return row;
}
