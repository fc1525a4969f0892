import { and, eq, lte, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { scheduledRuns } from '../db/schema.ts';

/** Claims `job` for `dueKey`: true for the one caller that may run it, false for everyone after. */
export async function claimScheduledRun(executor: Executor, job: string, dueKey: string, now: Date) {
  const inserted = await executor
    .insert(scheduledRuns)
    .values({ job, dueKey, ranAt: now })
    .onConflictDoNothing()
    .returning({ job: scheduledRuns.job });
  return inserted.length === 1;
}

export async function scheduledRunCount(executor: Executor, job: string) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(scheduledRuns)
    .where(sql`${scheduledRuns.job} = ${job}`);
  return row?.count ?? 0;
}

/**
 * `not exists` a run of `job` for the due key `dueKey` (an SQL expression over the caller's row): a poller's
 * statement skips what already ran by one probe of the primary key per row, instead of reading every key back.
 * `offset 0` keeps it a probe per row (PostgreSQL does not turn such a subquery into a join). As an anti-join
 * it was planned from scheduled_runs' statistics, which on a Monday morning still say the week has no rows
 * while 76,000 are written within hours: PostgreSQL then read all of the week's rows once per owner, and a
 * batch of 100 owners took 50 s with 38,000 rows written (bench:weekly), against 35 ms probing.
 */
export const notRunSql = (job: string, dueKey: SQL) =>
  sql`not exists (select 1 from ${scheduledRuns} where ${scheduledRuns.job} = ${job} and ${scheduledRuns.dueKey} = ${dueKey} offset 0)`;

/**
 * Leases are rows of the job '<job>:lease', one per part; ran_at holds when the lease ends. The row is
 * committed at once, so the work done under it is not held in one long transaction (nor, on PGlite, does it
 * block the queries that work runs).
 */
const leaseJob = (job: string) => `${job}:lease`;

/**
 * Leases `part` of `job`'s due items (a range an instance works through) until `now + leaseMs`: the lease's
 * end, or null when another instance holds it. An ended lease is free again, so a crashed holder's part is
 * taken up. Each due item is still claimed by runOncePerDueItem: a lease only spares a second instance the
 * work, it is not what keeps an item once.
 */
export async function takeLease(
  executor: Executor,
  job: string,
  part: string,
  now: Date,
  leaseMs: number,
): Promise<Date | null> {
  const until = new Date(now.getTime() + leaseMs);
  const taken = await executor
    .insert(scheduledRuns)
    .values({ job: leaseJob(job), dueKey: part, ranAt: until })
    .onConflictDoUpdate({
      target: [scheduledRuns.job, scheduledRuns.dueKey],
      set: { ranAt: until },
      where: lte(scheduledRuns.ranAt, now),
    })
    .returning({ job: scheduledRuns.job });
  return taken.length === 1 ? until : null;
}

/** Extends a lease still held (ending at `held`) to `now + leaseMs`; null when it ran out and was taken. */
export async function renewLease(
  executor: Executor,
  job: string,
  part: string,
  held: Date,
  now: Date,
  leaseMs: number,
): Promise<Date | null> {
  const until = new Date(now.getTime() + leaseMs);
  const renewed = await executor
    .update(scheduledRuns)
    .set({ ranAt: until })
    .where(
      and(
        eq(scheduledRuns.job, leaseJob(job)),
        eq(scheduledRuns.dueKey, part),
        eq(scheduledRuns.ranAt, held),
      ),
    )
    .returning({ job: scheduledRuns.job });
  return renewed.length === 1 ? until : null;
}

/** Hands a lease back (only the one ending at `held`: a lease taken over since is the new holder's). */
export async function releaseLease(executor: Executor, job: string, part: string, held: Date) {
  await executor
    .delete(scheduledRuns)
    .where(
      and(
        eq(scheduledRuns.job, leaseJob(job)),
        eq(scheduledRuns.dueKey, part),
        eq(scheduledRuns.ranAt, held),
      ),
    );
}
