import { and, eq, inArray, sql } from 'drizzle-orm';
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

/** Which of `dueKeys` already ran for `job`: a poller skips them without trying to claim each one again. */
export async function ranDueKeys(executor: Executor, job: string, dueKeys: string[]): Promise<Set<string>> {
  if (dueKeys.length === 0) return new Set();
  const rows = await executor
    .select({ dueKey: scheduledRuns.dueKey })
    .from(scheduledRuns)
    .where(and(eq(scheduledRuns.job, job), inArray(scheduledRuns.dueKey, dueKeys)));
  return new Set(rows.map((row) => row.dueKey));
}
