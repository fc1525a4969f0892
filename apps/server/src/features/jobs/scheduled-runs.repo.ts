import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { scheduledRuns } from '../../db/schema.ts';

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
