import { and, asc, eq, lte, sql } from 'drizzle-orm';
import { dateOrNull, type Executor } from '../../db/client.ts';
import { customers, offers } from '../../db/schema.ts';

/** The queries that move an opening's waves along (waves.ts; issue 26): pending waves, held texts, timers. */

/** The customers of a pending wave, in the plan's order. */
export async function pendingCustomersOfWave(executor: Executor, openingId: string, wave: number) {
  const rows = await executor
    .select({ customer: customers })
    .from(offers)
    .innerJoin(customers, eq(customers.id, offers.customerId))
    .where(and(eq(offers.openingId, openingId), eq(offers.wave, wave), eq(offers.status, 'pending')))
    .orderBy(asc(offers.rank), asc(customers.position));
  return rows.map((row) => row.customer);
}

/** The customers whose held text is due (quiet hours ended), in the plan's order. */
export async function heldOffersDue(executor: Executor, openingId: string, now: Date) {
  const rows = await executor
    .select({ customer: customers })
    .from(offers)
    .innerJoin(customers, eq(customers.id, offers.customerId))
    .where(and(eq(offers.openingId, openingId), eq(offers.status, 'held'), lte(offers.sendAt, now)))
    .orderBy(asc(offers.rank), asc(customers.position));
  return rows.map((row) => row.customer);
}

/** The first wave still pending (null: none). */
export async function nextPendingWave(executor: Executor, openingId: string): Promise<number | null> {
  const [row] = await executor
    .select({ wave: sql<number | null>`min(${offers.wave})` })
    .from(offers)
    .where(and(eq(offers.openingId, openingId), eq(offers.status, 'pending')));
  return row?.wave ?? null;
}

/** When the first held text of the opening goes (null: none held). */
export async function earliestHeld(executor: Executor, openingId: string): Promise<Date | null> {
  const [row] = await executor
    .select({ at: sql<Date | string | null>`min(${offers.sendAt})` })
    .from(offers)
    .where(and(eq(offers.openingId, openingId), eq(offers.status, 'held')));
  return dateOrNull(row?.at ?? null);
}

/** When the opening's last alert went out (null: none yet). */
export async function lastSentAt(executor: Executor, openingId: string): Promise<Date | null> {
  const [row] = await executor
    .select({ at: sql<Date | string | null>`max(${offers.sentAt})` })
    .from(offers)
    .where(eq(offers.openingId, openingId));
  return dateOrNull(row?.at ?? null);
}
