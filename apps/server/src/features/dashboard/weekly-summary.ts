import type { Database, Executor } from '../../db/client.ts';
import { ranDueKeys, runOncePerDueItem } from '../../jobs/index.ts';
import type { Clock } from '../../lib/clock.ts';
import { withoutQueryValues } from '../../lib/db-errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { createPollingLoop } from '../../lib/polling-loop.ts';
import { localDate, wallClock } from '../../lib/time-zone.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import { addDays, type DashboardService, startOfLocalDay } from './dashboard.service.ts';
import { weeklySummaryEmail } from './weekly-summary.emails.ts';

/** The scheduled_runs job name; its due key is '<userId>:<the summarised week's Monday, YYYY-MM-DD>'. */
export const WEEKLY_SUMMARY_JOB = 'weekly-email';
/** Monday's email goes out from this local hour until the end of that Monday. */
export const WEEKLY_SUMMARY_HOUR = 8;

export interface WeeklySummaryOwner {
  id: string;
  email: string;
  firstName: string;
  businessName: string;
  timeZone: string;
  createdAt: Date;
}

/**
 * The Monday summary (issue 14): "Your waitlist recovered $X this week", last week's figures from the
 * dashboard's own queries. Each pass lists the owners with the email on and sends to those whose local time
 * is Monday 08:00–24:00, once per business per week across every instance (jobs/). An account
 * created after the week ended gets its first summary the Monday after.
 */
export function createWeeklySummary(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker after a pass queued email. */
  onOutboxWrite?: () => void;
  /** The owners (features/auth's repo owns `users`). */
  owners: { weeklySummaryOwners(executor: Executor): Promise<WeeklySummaryOwner[]> };
  period: DashboardService['period'];
}) {
  const { db, clock } = deps;
  const links = {
    dashboardUrl: `${deps.publicUrl}/dashboard`,
    settingsUrl: `${deps.publicUrl}/account`,
  };

  /** The week a Monday-morning owner is due a summary for, or null when it is not their Monday morning. */
  function dueWeek(owner: WeeklySummaryOwner, now: Date) {
    const wall = wallClock(now, owner.timeZone);
    if (wall.weekday !== 1 || wall.hour < WEEKLY_SUMMARY_HOUR) return null;
    const monday = localDate(now, owner.timeZone);
    if (owner.createdAt >= startOfLocalDay(monday, owner.timeZone)) return null;
    const from = addDays(monday, -7);
    return { from, to: addDays(from, 6), key: `${owner.id}:${from}` };
  }

  /** One pass: queues every due summary; returns how many were queued by this instance. */
  async function runDue(): Promise<number> {
    const now = clock.now();
    const due = (await deps.owners.weeklySummaryOwners(db)).flatMap((owner) => {
      const week = dueWeek(owner, now);
      return week ? [{ owner, ...week }] : [];
    });
    const done = await ranDueKeys(
      db,
      WEEKLY_SUMMARY_JOB,
      due.map((item) => item.key),
    );
    let queued = 0;
    for (const item of due) {
      if (done.has(item.key)) continue;
      try {
        const week = await deps.period(item.owner, 'custom', { from: item.from, to: item.to }, now);
        const run = await runOncePerDueItem({ db, clock }, WEEKLY_SUMMARY_JOB, item.key, (tx) =>
          enqueueEmail(tx, weeklySummaryEmail(item.owner, week, links), now),
        );
        if (run.ran) queued += 1;
      } catch (error) {
        // One owner's failure leaves their week due for the next pass and does not hold up the others.
        deps.logger.error({ err: withoutQueryValues(error), userId: item.owner.id }, 'weekly summary failed');
      }
    }
    if (queued > 0) deps.onOutboxWrite?.();
    return queued;
  }

  return { runDue };
}
export type WeeklySummary = ReturnType<typeof createWeeklySummary>;

export interface WeeklySummaryWorker {
  start(): void;
  /** One pass now by the injected clock; tests call it after moving the clock. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Polls every five minutes: a Monday summary leaves within minutes of 08:00 in each owner's time zone. */
export function createWeeklySummaryWorker(deps: {
  weeklySummary: WeeklySummary;
  logger: Logger;
  pollMs?: number;
}): WeeklySummaryWorker {
  const { start, runOnce, stop } = createPollingLoop({
    pass: () => deps.weeklySummary.runDue(),
    pollMs: deps.pollMs ?? 5 * 60_000,
    logger: deps.logger,
    failureMessage: 'weekly summary pass failed',
    afterPass: (queued) => {
      if (queued) deps.logger.info({ queued }, 'weekly summaries queued');
    },
  });
  return { start, runOnce, stop };
}
