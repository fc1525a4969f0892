/**
 * One instance of `npm run bench:weekly` (a process of its own, as a second server would be): its own pool,
 * the weekly summary built as composition.ts builds it, and a clock that it steps through the Monday
 * measured, five minutes a step, one pass per step as the worker runs them, until every due owner's summary
 * is queued (by it or the other instance). Talks to the parent over IPC.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.ts';
import { scheduledRuns } from '../../db/schema.ts';
import { WEEKLY_SUMMARY_JOB } from '../../features/dashboard/weekly-summary.ts';
import { createManualClock } from '../../lib/clock.ts';
import { benchWeeklySummaryWorker, countingLogger } from './summary.ts';

export interface InstancePlan {
  url: string;
  /** The summarised week's Monday (the due keys' suffix). */
  from: string;
  /** The first step (the earliest zone's Monday 08:00) and the last (the latest zone's Monday end), ms. */
  startMs: number;
  endMs: number;
  stepMs: number;
  due: number;
}

export interface InstanceResult {
  passes: number;
  queued: number;
  busyMs: number;
  /** Date.now() when this instance saw every due summary queued. */
  doneAt: number;
  errors: number;
}

const plan = JSON.parse(process.argv[2] ?? '{}') as InstancePlan;
const database = openDatabase({ url: plan.url });
const clock = createManualClock(new Date(plan.startMs));
const { logger, counter } = countingLogger();
const worker = benchWeeklySummaryWorker(database.db, clock, logger);

async function queuedSoFar() {
  const [row] = await database.db
    .select({ count: sql<number>`count(*)::int` })
    .from(scheduledRuns)
    .where(
      sql`${scheduledRuns.job} = ${WEEKLY_SUMMARY_JOB} and ${scheduledRuns.dueKey} like ${`%:${plan.from}`}`,
    );
  return row?.count ?? 0;
}

async function stepThroughMonday(): Promise<InstanceResult> {
  let passes = 0;
  let queued = 0;
  let busyMs = 0;
  for (let at = plan.startMs; at <= plan.endMs; at += plan.stepMs) {
    clock.set(new Date(at));
    const started = performance.now();
    queued += await worker.runOnce();
    busyMs += performance.now() - started;
    passes += 1;
    if ((await queuedSoFar()) >= plan.due) break;
  }
  return { passes, queued, busyMs, doneAt: Date.now(), errors: counter.errors };
}

// A first statement opens the pool's connection before the clock starts.
await queuedSoFar();
process.send?.({ ready: true });
process.on('message', async (message: { go?: boolean }) => {
  if (!message.go) return;
  const result = await stepThroughMonday();
  process.send?.({ result });
  await database.close();
  process.disconnect?.();
});
