import type { Database, Transaction } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { claimScheduledRun } from './scheduled-runs.repo.ts';

/**
 * Runs `work` for one due item of a scheduled job at most once across every instance (issue 17). The claim
 * row and the work's writes (an email queued in the outbox, say) commit together: a second instance waits on
 * the first one's uncommitted row and then finds it taken; a run that throws rolls back and leaves the item
 * due. A job's poller (lib/polling-loop.ts) lists what is due and calls this per item; the weekly email
 * (issue 14) is one: job 'weekly-email', due key '<userId>:<the summarised week's Monday, YYYY-MM-DD>'.
 */
export async function runOncePerDueItem<T>(
  deps: { db: Database; clock: Clock },
  job: string,
  dueKey: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  return deps.db.transaction(async (tx) => {
    if (!(await claimScheduledRun(tx, job, dueKey, deps.clock.now()))) return { ran: false as const };
    return { ran: true as const, result: await work(tx) };
  });
}
