import type { Database, Executor } from '../../db/client.ts';
import { releaseLease, renewLease, runOncePerDueItem, takeLease } from '../../jobs/index.ts';
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

/** A time zone at Monday morning now: its owners created before that Monday began are due. */
export interface DueZone {
  timeZone: string;
  createdBefore: Date;
}

/** The owners as the summary reads them (features/auth's repo owns `users`). */
export interface WeeklySummaryOwners {
  /** The distinct time zones of the owners the summary may go to. */
  weeklySummaryZones(executor: Executor): Promise<string[]>;
  /** A batch of the owners of `zones` whose summary has not run, in id order. */
  dueWeeklySummaryOwners(
    executor: Executor,
    query: {
      zones: DueZone[];
      /** Leaves out those with a run of `job` whose due key is their id followed by `dueKeySuffix`. */
      notRun: { job: string; dueKeySuffix: string };
      idFrom?: string;
      idBefore?: string;
      after?: string;
      limit: number;
    },
  ): Promise<WeeklySummaryOwner[]>;
}

/**
 * The owners are split into id ranges (the first 6 bits of their random UUIDs): an instance leases a range,
 * works through its due owners and hands it back, so two instances never compute the same owner's figures.
 */
export const WEEKLY_SUMMARY_PARTS = 64;
/** Owners read per statement within a range. */
const BATCH = 100;
/** Long enough for a batch; renewed after each, so a crashed instance's range is free again within a minute. */
const LEASE_MS = 60_000;

/** [idFrom, idBefore) of part `n` of WEEKLY_SUMMARY_PARTS, as UUID bounds (the last part has no upper one). */
export function partBounds(n: number): { idFrom?: string; idBefore?: string } {
  const width = 256 / WEEKLY_SUMMARY_PARTS;
  const bound = (k: number) => `${k.toString(16).padStart(2, '0')}000000-0000-0000-0000-000000000000`;
  return {
    ...(n > 0 ? { idFrom: bound(n * width) } : {}),
    ...(n < WEEKLY_SUMMARY_PARTS - 1 ? { idBefore: bound((n + 1) * width) } : {}),
  };
}

/**
 * The Monday summary (issue 14): "Your waitlist recovered $X this week", last week's figures from the
 * dashboard's own queries, once per business per week across every instance (jobs/). Each pass reads only
 * who is due (issue 30): the zones in use, then, of those at Monday 08:00–24:00, the owners without this
 * week's run, range by range under a lease. An account created after that Monday began gets its first
 * summary the Monday after.
 */
export function createWeeklySummary(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker after a pass queued email. */
  onOutboxWrite?: () => void;
  owners: WeeklySummaryOwners;
  period: DashboardService['period'];
}) {
  const { db, clock, logger } = deps;
  const links = {
    dashboardUrl: `${deps.publicUrl}/dashboard`,
    settingsUrl: `${deps.publicUrl}/account`,
  };

  /**
   * The zones at Monday morning now, by the week they are due (all of them one week: a Monday morning spans
   * at most 26 hours of zones). A name Intl does not know is logged and skipped, not a failed pass.
   */
  function dueWeeks(zones: string[], now: Date): Map<string, DueZone[]> {
    const weeks = new Map<string, DueZone[]>();
    for (const timeZone of zones) {
      try {
        const wall = wallClock(now, timeZone);
        if (wall.weekday !== 1 || wall.hour < WEEKLY_SUMMARY_HOUR) continue;
        const monday = localDate(now, timeZone);
        const from = addDays(monday, -7);
        const due = { timeZone, createdBefore: startOfLocalDay(monday, timeZone) };
        weeks.set(from, [...(weeks.get(from) ?? []), due]);
      } catch (error) {
        logger.error({ err: withoutQueryValues(error), timeZone }, 'weekly summary: unknown time zone');
      }
    }
    return weeks;
  }

  /** Queues one owner's summary of the week from `from`; true when this call queued it. */
  async function send(owner: WeeklySummaryOwner, from: string, now: Date): Promise<boolean> {
    try {
      const week = await deps.period(owner, 'custom', { from, to: addDays(from, 6) }, now);
      const run = await runOncePerDueItem({ db, clock }, WEEKLY_SUMMARY_JOB, `${owner.id}:${from}`, (tx) =>
        enqueueEmail(tx, weeklySummaryEmail(owner, week, links), now),
      );
      return run.ran;
    } catch (error) {
      // One owner's failure leaves their week due for the next pass and does not hold up the others.
      logger.error({ err: withoutQueryValues(error), userId: owner.id }, 'weekly summary failed');
      return false;
    }
  }

  /** The zones due one week's summary, that week's Monday-before (`from`), and who has had it already. */
  type DueWeek = { zones: DueZone[]; from: string; notRun: { job: string; dueKeySuffix: string } };

  /** Works through one leased range's due owners; 0 when another instance holds the range. */
  async function runPart(part: number, due: DueWeek, now: Date): Promise<number> {
    const { zones, from, notRun } = due;
    const key = String(part);
    let held = await takeLease(db, WEEKLY_SUMMARY_JOB, key, clock.now(), LEASE_MS);
    if (!held) return 0;
    let queued = 0;
    let after: string | undefined;
    try {
      for (;;) {
        const owners = await deps.owners.dueWeeklySummaryOwners(db, {
          zones,
          notRun,
          ...partBounds(part),
          ...(after ? { after } : {}),
          limit: BATCH,
        });
        for (const owner of owners) if (await send(owner, from, now)) queued += 1;
        if (owners.length < BATCH) return queued;
        // A failed owner is not read again in this pass: the cursor moves past it.
        after = owners[owners.length - 1]?.id;
        held = await renewLease(db, WEEKLY_SUMMARY_JOB, key, held, clock.now(), LEASE_MS);
        // Ran out (a batch slower than the lease) and taken over: the new holder carries on.
        if (!held) return queued;
      }
    } finally {
      if (held) await releaseLease(db, WEEKLY_SUMMARY_JOB, key, held);
    }
  }

  /** One pass: queues every due summary; returns how many were queued by this instance. */
  async function runDue(): Promise<number> {
    const now = clock.now();
    const weeks = dueWeeks(await deps.owners.weeklySummaryZones(db), now);
    let queued = 0;
    for (const [from, zones] of weeks) {
      const notRun = { job: WEEKLY_SUMMARY_JOB, dueKeySuffix: `:${from}` };
      // Most of Monday nobody is left: one statement says so, without taking and handing back every range.
      const anyone = await deps.owners.dueWeeklySummaryOwners(db, { zones, notRun, limit: 1 });
      if (anyone.length === 0) continue;
      for (let part = 0; part < WEEKLY_SUMMARY_PARTS; part += 1)
        queued += await runPart(part, { zones, from, notRun }, now);
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
