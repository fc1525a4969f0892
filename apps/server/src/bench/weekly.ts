/**
 * `npm run bench:weekly -- <postgres url>` (issue 30: "the weekly summary for all 100,000 businesses is sent
 * within one hour by two instances"): figures, not a timed test. Default database: waitlist_scale_full, the
 * 100,000 businesses `npm run bench:scale` seeds.
 *
 * The Monday measured is the first after the newest account, so every owner the summary may go to is due.
 * One instance, then two (processes of their own, each with its own pool, src/bench/weekly/instance.ts),
 * step their clocks through that Monday five minutes a step, one pass a step, until every due summary is
 * queued. Then: what a pass costs on a Tuesday and on that Monday once all are queued, and how fast the
 * outbox hands the queued emails to a local SMTP server (a measured sample, WEEKLY_OUTBOX_SAMPLE, default
 * 5,000), through the app's SMTP driver. Every row it added (the
 * week's scheduled_runs rows, the leases, the queued emails) is deleted afterwards, and the counts checked.
 */
import { fork } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { addDays, startOfLocalDay } from '../features/dashboard/dashboard.service.ts';
import { WEEKLY_SUMMARY_HOUR, WEEKLY_SUMMARY_JOB } from '../features/dashboard/weekly-summary.ts';
import { createManualClock } from '../lib/clock.ts';
import { localDate, zonedToUtc } from '../lib/time-zone.ts';
import { createOutboxWorker } from '../outbox/index.ts';
import type { EmailProvider } from '../providers/email/index.ts';
import { createSmtpEmailProvider } from '../providers/email/smtp.ts';
import { startFakeSmtp } from '../test/fake-smtp.ts';
import { summaryUsers } from '../wiring.ts';
import type { InstancePlan, InstanceResult } from './weekly/instance.ts';
import { benchWeeklySummaryWorker, countingLogger } from './weekly/summary.ts';

const url = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/waitlist_scale_full';
const STEP_MS = 5 * 60_000;
/** Emails handed to SMTP to time the outbox (of all of them queued). */
const OUTBOX_SAMPLE = Number(process.env.WEEKLY_OUTBOX_SAMPLE ?? 5_000);
const HOUR = 3_600_000;

const database = openDatabase({ url });
const { db } = database;
const rowsOf = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows;

/** What the bench may add, counted before and after. */
async function counts(from: string) {
  const [row] = await rowsOf<{ runs: number; leases: number; emails: number }>(sql`
    select (select count(*) from scheduled_runs where job = ${WEEKLY_SUMMARY_JOB} and due_key like ${`%:${from}`})::int as runs,
      (select count(*) from scheduled_runs where job = ${`${WEEKLY_SUMMARY_JOB}:lease`})::int as leases,
      (select count(*) from outbox where kind = 'email')::int as emails`);
  return row!;
}

async function cleanUp(from: string, since: Date) {
  await db.execute(sql`delete from scheduled_runs
    where (job = ${WEEKLY_SUMMARY_JOB} and due_key like ${`%:${from}`}) or job = ${`${WEEKLY_SUMMARY_JOB}:lease`}`);
  await db.execute(sql`delete from outbox where kind = 'email' and created_at >= ${since.toISOString()}::timestamptz
    and payload->>'subject' like 'Your waitlist recovered%'`);
}

/** The Monday measured, the week it summarises, the zones in use and the owners due. */
async function planMonday() {
  const [newest] = await rowsOf<{ at: string }>(sql`select max(created_at)::text as at from users`);
  const after = new Date(newest!.at);
  let monday = addDays(localDate(after, 'UTC'), 1);
  while (new Date(`${monday}T12:00:00Z`).getUTCDay() !== 1) monday = addDays(monday, 1);
  const zones = await summaryUsers.weeklySummaryZones(db);
  const [y, m, d] = monday.split('-').map(Number);
  const starts = zones.map((zone) =>
    zonedToUtc({ year: y!, month: m!, day: d!, hour: WEEKLY_SUMMARY_HOUR }, zone),
  );
  const ends = zones.map((zone) => startOfLocalDay(addDays(monday, 1), zone).getTime() - STEP_MS);
  const due = sql.join(
    zones.map((zone) => sql`(${zone}, ${startOfLocalDay(monday, zone).toISOString()}::timestamptz)`),
    sql`, `,
  );
  const [row] = await rowsOf<{ due: number }>(sql`
    select count(*)::int as due from (values ${due}) as z(time_zone, created_before)
    join users u on u.time_zone = z.time_zone and u.created_at < z.created_before
    where u.verified and u.weekly_summary_enabled and u.business_name <> ''`);
  return {
    monday,
    from: addDays(monday, -7),
    zones,
    startMs: Math.min(...starts.map((s) => s.getTime())),
    endMs: Math.max(...ends),
    due: row!.due,
  };
}

/** `n` instances step through the Monday together; seconds from the first pass to every summary queued. */
async function runInstances(n: number, plan: InstancePlan) {
  const script = fileURLToPath(new URL('./weekly/instance.ts', import.meta.url));
  const children = Array.from({ length: n }, () =>
    fork(script, [JSON.stringify(plan)], { execArgv: ['--import', 'tsx'], stdio: 'inherit' }),
  );
  const message = (child: (typeof children)[number], key: 'ready' | 'result') =>
    new Promise<InstanceResult | true>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`an instance exited (${code}) before '${key}'`)));
      child.on('message', (m: { ready?: true; result?: InstanceResult }) => {
        if (m[key]) resolve(m[key]);
      });
    });
  await Promise.all(children.map((child) => message(child, 'ready')));
  const results = children.map((child) => message(child, 'result') as Promise<InstanceResult>);
  const goAt = Date.now();
  for (const child of children) child.send({ go: true });
  const done = await Promise.all(results);
  const seconds = (Math.max(...done.map((r) => r.doneAt)) - goAt) / 1000;
  return { seconds, done };
}

/** A pass's wall time (median of `times`) at `at`, by one more instance in this process. */
async function passCost(at: Date, times: number) {
  const clock = createManualClock(at);
  const { logger } = countingLogger();
  const worker = benchWeeklySummaryWorker(db, clock, logger);
  const timings: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const queued = await worker.runOnce();
    timings.push(performance.now() - started);
    if (queued !== 0) throw new Error(`a pass at ${at.toISOString()} queued ${queued}: none was expected`);
  }
  timings.sort((a, b) => a - b);
  return timings[Math.floor(timings.length / 2)]!;
}

const FROM = 'Waitlist <hello@bench.test>';
/** The app's SMTP driver (providers/email/smtp.ts), which keeps its connections (a pool of up to 5). */
const appSmtp = (url: string) => createSmtpEmailProvider({ url, from: FROM });

/** The outbox hands the queued summaries to a local SMTP server: emails per second over a sample. */
async function outboxRate(at: Date, provider: (url: string) => EmailProvider) {
  const [other] = await rowsOf<{ n: number }>(
    sql`select count(*)::int as n from outbox where status = 'pending' and kind <> 'email'`,
  );
  if (other!.n > 0)
    return { skipped: `${other!.n} other pending outbox rows (texts, pushes) are not this bench's` };
  const [queued] = await rowsOf<{ n: number }>(
    sql`select count(*)::int as n from outbox where status = 'pending' and kind = 'email'`,
  );
  const sample = Math.min(OUTBOX_SAMPLE, queued!.n);
  const smtp = await startFakeSmtp();
  const email = provider(smtp.url);
  const { logger, counter } = countingLogger();
  const outbox = createOutboxWorker({ db, email, clock: createManualClock(at), logger, pollMs: 50 });
  const started = performance.now();
  outbox.start();
  // Stops at the sample, or when nothing has been handed over for 30 s (a stuck run still cleans up).
  let last = { count: 0, at: performance.now() };
  while (smtp.received.length < sample && performance.now() - last.at < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (smtp.received.length > last.count) last = { count: smtp.received.length, at: performance.now() };
  }
  const sent = smtp.received.length;
  const seconds = (performance.now() - started) / 1000;
  await outbox.stop();
  await email.close();
  await smtp.close();
  return { sent, seconds, perSecond: sent / seconds, errors: counter.errors };
}

const benchStart = new Date(Date.now() - 60_000);
const plan = await planMonday();
const before = await counts(plan.from);
if (before.runs > 0 || before.leases > 0) {
  throw new Error(
    `scheduled_runs already holds ${before.runs} runs of the week of ${plan.from}: not this bench's`,
  );
}
const instancePlan: InstancePlan = {
  url,
  from: plan.from,
  startMs: plan.startMs,
  endMs: plan.endMs,
  stepMs: STEP_MS,
  due: plan.due,
};
console.log(
  `Weekly summary on ${url.replace(/\/\/[^@]*@/, '//')}: Monday ${plan.monday} (the week of ${plan.from}), ` +
    `${plan.zones.length} time zones in use (${plan.zones.join(', ')}), ${plan.due.toLocaleString('en-US')} owners due`,
);
console.log(
  `Clocks stepped ${STEP_MS / 60_000} min a pass from ${new Date(plan.startMs).toISOString()} ` +
    `(the first zone's ${WEEKLY_SUMMARY_HOUR}:00) to ${new Date(plan.endMs).toISOString()} or until all are queued\n`,
);
try {
  const one = await runInstances(1, instancePlan);
  await cleanUp(plan.from, benchStart);
  const two = await runInstances(2, instancePlan);
  const rows = [
    { name: '1 instance', ...one },
    { name: '2 instances', ...two },
  ];
  console.log(
    '| instances | seconds to queue all | summaries/s | passes | queued by each | busy s each | errors |',
  );
  console.log('| --- | ---: | ---: | ---: | --- | --- | ---: |');
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${row.seconds.toFixed(1)} | ${(plan.due / row.seconds).toFixed(0)} | ${row.done
        .map((r) => r.passes)
        .join(' + ')} | ${row.done.map((r) => r.queued.toLocaleString('en-US')).join(' + ')} | ${row.done
        .map((r) => (r.busyMs / 1000).toFixed(1))
        .join(' + ')} | ${row.done.reduce((sum, r) => sum + r.errors, 0)} |`,
    );
  }
  console.log(`\n2 instances / 1: ${(one.seconds / two.seconds).toFixed(2)}× as fast`);

  // Six hours after the last zone's Monday ended: Tuesday (or later) in every zone in use.
  const tuesday = new Date(plan.endMs + 6 * HOUR);
  const mondayDone = new Date(plan.endMs);
  console.log(
    `A pass with nobody due, median of 21: on the Tuesday ${(await passCost(tuesday, 21)).toFixed(1)} ms; ` +
      `on the Monday once all are queued ${(await passCost(mondayDone, 21)).toFixed(1)} ms`,
  );

  const outbox = await outboxRate(new Date(plan.endMs + HOUR), appSmtp);
  if ('skipped' in outbox) console.log(`Outbox to SMTP: not measured, ${outbox.skipped}`);
  else {
    console.log(
      `Outbox to SMTP, the app's SMTP driver, one outbox worker, a local smtp-server: a sample of ` +
        `${outbox.sent.toLocaleString('en-US')} emails in ${outbox.seconds.toFixed(1)} s, ` +
        `${outbox.perSecond.toFixed(0)} emails/s, ${outbox.errors} errors; all ${plan.due.toLocaleString('en-US')} ` +
        `at that rate: ${(plan.due / outbox.perSecond / 60).toFixed(1)} min`,
    );
  }
} finally {
  await cleanUp(plan.from, benchStart);
  const after = await counts(plan.from);
  const same = after.runs === before.runs && after.leases === before.leases && after.emails === before.emails;
  console.log(
    `\nCleaned up: scheduled_runs of the week ${after.runs} (before ${before.runs}), leases ${after.leases} ` +
      `(${before.leases}), emails in the outbox ${after.emails} (${before.emails})${same ? ': as before' : ': NOT as before'}`,
  );
  await database.close();
}
