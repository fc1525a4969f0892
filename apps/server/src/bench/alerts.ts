/**
 * `npm run bench:alerts` (issue 5): figures, not a timed test.
 *
 * 1. A Growth business with 100 waiting customers opens a slot (POST /openings, everyone at once) with its
 *    send rate raised to 1000/s, so the pipeline and not the rate is measured: time from the request to all
 *    100 texts handed to the provider (a local HTTP server speaking Plivo's API).
 * 2. 500 signed inbound webhooks (100 YES races, then 400 other replies): replies handled per second.
 * 3. At the default 5/s: the gaps between one account's texts as the Plivo server received them.
 *
 * Runs on in-memory PGlite; `TEST_DB=postgres TEST_DATABASE_URL=postgres://…/postgres` runs it on PostgreSQL.
 * `BENCH_PROFILE=<file.cpuprofile>` writes a CPU profile of step 2 alone (open it in Chrome's DevTools).
 * `BENCH_STATEMENTS=1` (PostgreSQL) counts the statements step 2 sends, by their text: on this VM each costs
 * the server ~100 µs of CPU in its socket write, so their number is what the reply rate follows.
 * Step 2 also prints the CPU it cost per reply, node's and (PostgreSQL, local) the database backends': on a
 * shared machine these move less with the other jobs than the rate does (issue 40).
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { users } from '../db/schema.ts';
import { plivoV3Signature } from '../features/messaging/plivo-signature.ts';
import { createManualClock, systemClock } from '../lib/clock.ts';
import { daytimeZone } from '../test/daytime-zone.mjs';
import { type FakePlivo, startFakePlivo } from '../test/fake-plivo.ts';
import { auth, createTestDatabase, onboardedUser, type TestApp } from '../test/test-app.ts';
import { cpuMeter } from './cpu.ts';

const PUBLIC_URL = 'http://bench.local';
const CUSTOMERS = 100;
const REPLIES = 500;

async function startApp(fake: FakePlivo, sendRate: number): Promise<TestApp> {
  const database = await createTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL,
    PLIVO_AUTH_ID: fake.authId,
    PLIVO_AUTH_TOKEN: fake.authToken,
    PLIVO_API_URL: fake.url,
    SMS_SEND_RATE: String(sendRate),
  });
  // The real clock: the outbox worker runs as in production (kicked by the request, timers for the rate).
  const app = await buildApp({ config, database, clock: systemClock, logger: false });
  await app.ready();
  app.outbox.start();
  return {
    app,
    database,
    config,
    clock: createManualClock(),
    async close() {
      await app.close();
      await database.close();
    },
  };
}

async function growthBusiness(t: TestApp, fake: FakePlivo, customers: number, firstPhone: number) {
  const user = await onboardedUser(t);
  await t.database.db
    .update(users)
    .set({ subscriptionPlan: 'growth', subscriptionStatus: 'active', timeZone: daytimeZone() })
    .where(eq(users.id, user.id));
  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: auth(user.token),
      ...(payload ? { payload } : {}),
    });
  const requested = await call('POST', '/phone-number/request', {});
  const number = requested.json().data.number as string;
  fake.registration.set(number.slice(1), { tendlc_registration_status: 'COMPLETED' });
  const verified = await call('POST', '/phone-number/verify', {});
  if (verified.json().data?.status !== 'verified') throw new Error(`verify failed: ${verified.body}`);
  const phones = Array.from(
    { length: customers },
    (_, i) => `+1212555${String(firstPhone + i).padStart(4, '0')}`,
  );
  const csv = ['name,phone', ...phones.map((phone, i) => `Customer ${i + 1},${phone}`)].join('\n');
  const imported = await call('POST', '/waitlist/import', { csv });
  if (imported.statusCode !== 200) throw new Error(`import failed: ${imported.body}`);
  return { user, number, phones, call };
}

const openSlot = (call: Awaited<ReturnType<typeof growthBusiness>>['call']) =>
  call('POST', '/openings', {
    startsAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
  });

async function waitFor(condition: () => boolean, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('timed out');
    await sleep(1);
  }
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Counts the statements node-postgres sends while on, by their first 100 characters (BENCH_STATEMENTS). */
function statementCounter() {
  const counts = new Map<string, number>();
  const query = pg.Client.prototype.query;
  let total = 0;
  return {
    start() {
      pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
        const text = typeof config === 'string' ? config : ((config as { text?: string })?.text ?? '?');
        const key = text.replace(/\s+/g, ' ').trim().slice(0, 100);
        counts.set(key, (counts.get(key) ?? 0) + 1);
        total += 1;
        return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
      } as typeof query;
    },
    stop() {
      pg.Client.prototype.query = query;
      return { total, byText: [...counts].sort((a, b) => b[1] - a[1]) };
    },
  };
}

type Business = Awaited<ReturnType<typeof growthBusiness>>;

/** Step 1: one alert to 100 customers at 1000/s, after a warm-up alert on another business. */
async function alertStep(fake: FakePlivo) {
  const fast = await startApp(fake, 1000);
  // Warm-up (not measured): a first alert on another business, so the figures are a running server's.
  const warmUp = await growthBusiness(fast, fake, CUSTOMERS, 5000);
  const warmBefore = fake.messages.length;
  await openSlot(warmUp.call);
  await waitFor(() => fake.messages.length - warmBefore >= CUSTOMERS, 60_000);
  const business = await growthBusiness(fast, fake, CUSTOMERS, 1000);
  const before = fake.messages.length;
  const started = performance.now();
  const opened = await openSlot(business.call);
  const answered = performance.now();
  if (opened.statusCode !== 201) throw new Error(`open slot failed: ${opened.body}`);
  await waitFor(() => fake.messages.length - before >= CUSTOMERS, 60_000);
  const allHanded = performance.now();
  const handed = fake.messages.slice(before);
  const distinct = new Set(handed.map((m) => m.dst)).size;
  console.log('1. Cancellation alert, Growth business, 100 waiting customers, SMS_SEND_RATE=1000');
  console.log(`   POST /openings answered in         ${ms(answered - started)}`);
  console.log(`   all 100 texts handed to Plivo in   ${ms(allHanded - started)}  (target ≤ 1000 ms)`);
  console.log(`   texts handed over: ${handed.length}, distinct customers: ${distinct}`);
  const alertSeconds = (allHanded - started) / 1000;
  return { fast, warmUp, business, opened, alertSeconds };
}

const WEBHOOK_PATH = '/api/v1/webhooks/plivo/message';
const REPLY_BODIES = ['Thanks!', 'Is there a later slot?', 'ok', 'See you'];
const CONCURRENCY = 10;

/** The replies of step 2 to a business's customers, signed before the clock starts (Plivo's work). */
function signedReplies(fake: FakePlivo, to: Business) {
  return Array.from({ length: REPLIES }, (_, i) => {
    const params = {
      From: to.phones[i % CUSTOMERS]!.slice(1),
      To: to.number.slice(1),
      Text: i < CUSTOMERS ? 'YES' : REPLY_BODIES[i % REPLY_BODIES.length]!,
      Type: 'sms',
      MessageUUID: randomUUID(),
    };
    const nonce = randomUUID().replace(/-/g, '').slice(0, 20);
    return {
      'x-plivo-signature-v3-nonce': nonce,
      'x-plivo-signature-v3': plivoV3Signature(
        fake.authToken,
        'POST',
        `${PUBLIC_URL}${WEBHOOK_PATH}`,
        nonce,
        params,
      ),
      payload: new URLSearchParams(params).toString(),
    };
  });
}

type SignedReply = ReturnType<typeof signedReplies>[number];

/** Posts batches of signed replies, CONCURRENCY in flight, counting the ones not answered 200. */
function replyRunner(app: TestApp['app']) {
  const send = ({ payload, ...signature }: SignedReply) =>
    app.inject({
      method: 'POST',
      url: WEBHOOK_PATH,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...signature },
      payload,
    });
  const runner = {
    failed: 0,
    /** The batch's seconds, from the first post to the last answer. */
    async run(batch: SignedReply[]) {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < batch.length) {
            const params = batch[next]!;
            next += 1;
            const response = await send(params);
            if (response.statusCode !== 200) runner.failed += 1;
          }
        }),
      );
      return (performance.now() - started) / 1000;
    },
  };
  return runner;
}

/** A CPU profile of step 2 when BENCH_PROFILE names a file; stop it with stopProfiler. */
async function startProfiler() {
  const profiler = process.env.BENCH_PROFILE ? new Session() : undefined;
  if (profiler) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  return profiler;
}

async function stopProfiler(profiler: Session | undefined) {
  if (!profiler) return;
  const { profile } = await profiler.post('Profiler.stop');
  writeFileSync(process.env.BENCH_PROFILE!, JSON.stringify(profile));
  profiler.disconnect();
}

/** Step 2's figures: seconds for the YES race, for the other replies and both, and the refused count. */
interface ReplyFigures {
  yesSeconds: number;
  otherSeconds: number;
  inboundSeconds: number;
  failed: number;
  /** CPU per reply, µs: this process (server, outbox, fake Plivo) and PostgreSQL's backends (null: PGlite). */
  nodeCpuUs: number;
  postgresCpuUs: number | null;
}

/** Step 2: the replies, measured; the YES race first, then the other replies on their own. */
async function repliesStep(
  fake: FakePlivo,
  step1: Awaited<ReturnType<typeof alertStep>>,
): Promise<ReplyFigures> {
  const { fast, warmUp, business, opened } = step1;
  const signed = signedReplies(fake, business);
  const runner = replyRunner(fast.app);
  // Warm-up (not measured): the same replies to the first business, so the webhook's code is compiled and its
  // statements prepared on the pool's connections, as on a server that has taken replies before.
  const warmReplies = signedReplies(fake, warmUp);
  const warmTexts = fake.messages.length;
  await runner.run(warmReplies.slice(0, CUSTOMERS));
  await waitFor(() => fake.messages.length - warmTexts >= CUSTOMERS, 30_000);
  await runner.run(warmReplies.slice(CUSTOMERS));
  // Its automatic answers go out before the clock starts: a quiet Plivo server for 200 ms.
  for (let seen = -1; seen !== fake.messages.length; await sleep(200)) seen = fake.messages.length;
  runner.failed = 0;
  const profiler = await startProfiler();
  const cpu = cpuMeter(fast.database.db, fast.database.kind);
  await cpu.start();
  const statements = process.env.BENCH_STATEMENTS ? statementCounter() : undefined;
  statements?.start();
  const beforeYes = fake.messages.length;
  const yesSeconds = await runner.run(signed.slice(0, CUSTOMERS));
  // The YES replies queued 100 texts (1 "it's yours", 99 "already filled"): let them go out first, so the
  // other replies are measured on their own.
  await waitFor(() => fake.messages.length - beforeYes >= CUSTOMERS, 30_000);
  const otherSeconds = await runner.run(signed.slice(CUSTOMERS));
  // Step 2's statements include those of the texts it queued (100 for the race, the automatic answers).
  const counted = statements?.stop();
  const used = await cpu.stop();
  await stopProfiler(profiler);
  const detail = await business.call('GET', `/openings/${opened.json().data.id}`);
  const replies = {
    yesSeconds,
    otherSeconds,
    inboundSeconds: yesSeconds + otherSeconds,
    failed: runner.failed,
    nodeCpuUs: used.nodeUs / REPLIES,
    postgresCpuUs: used.postgresUs === null ? null : used.postgresUs / REPLIES,
  };
  printReplies(replies, detail.json().data?.status ?? '?', counted);
  await fast.close();
  return replies;
}

function printReplies(
  { yesSeconds, otherSeconds, inboundSeconds, failed, nodeCpuUs, postgresCpuUs }: ReplyFigures,
  openingStatus: string,
  counted: ReturnType<ReturnType<typeof statementCounter>['stop']> | undefined,
) {
  console.log(
    `\n2. ${REPLIES} signed inbound webhooks (first ${CUSTOMERS} are YES races), ${CONCURRENCY} in flight`,
  );
  console.log(
    `   handled in ${ms(inboundSeconds * 1000)} → ${(REPLIES / inboundSeconds).toFixed(0)} replies/s  (target on PostgreSQL: ≥ 1,000/s)`,
  );
  console.log(
    `   the ${CUSTOMERS} YES (claim race, ${CUSTOMERS - 1} "already filled" texts queued): ${(CUSTOMERS / yesSeconds).toFixed(0)}/s; the ${REPLIES - CUSTOMERS} other replies: ${((REPLIES - CUSTOMERS) / otherSeconds).toFixed(0)}/s`,
  );
  console.log(`   refused: ${failed}; opening status: ${openingStatus}`);
  const database = postgresCpuUs === null ? '' : `, PostgreSQL ${postgresCpuUs.toFixed(0)} µs`;
  console.log(`   CPU per reply (with the texts it queued): node ${nodeCpuUs.toFixed(0)} µs${database}`);
  if (counted) {
    console.log(
      `   statements sent to PostgreSQL: ${counted.total} (${(counted.total / REPLIES).toFixed(1)} per reply)`,
    );
    for (const [text, count] of counted.byText.slice(0, 25))
      console.log(`   ${String(count).padStart(6)}  ${text}`);
  }
}

/** Step 3: the gaps between one account's texts at the default 5/s, as the Plivo server received them. */
async function spacingStep(fake: FakePlivo) {
  const slow = await startApp(fake, 5);
  const small = await growthBusiness(slow, fake, 10, 3000);
  const slowBefore = fake.requests.length;
  await openSlot(small.call);
  await waitFor(() => fake.messages.filter((m) => m.src === small.number.slice(1)).length >= 10, 30_000);
  const arrivals = fake.requests
    .slice(slowBefore)
    .filter((r) => r.path.endsWith('/Message/') && r.status === 202)
    .map((r) => r.at);
  const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
  console.log('\n3. Default SMS_SEND_RATE=5, one account, 10 texts, as received by the Plivo server');
  console.log(
    `   gaps: min ${ms(Math.min(...gaps))}, max ${ms(Math.max(...gaps))}, mean ${ms(gaps.reduce((a, b) => a + b, 0) / gaps.length)}  (must be ≥ 200 ms)`,
  );
  await slow.close();
  return gaps;
}

async function main() {
  const fake = await startFakePlivo();
  const kind = process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
  console.log(`bench:alerts · database ${kind} · Plivo: local HTTP server speaking its API\n`);

  // ---- 1. 100 texts at 1000/s ----
  const step1 = await alertStep(fake);
  const { alertSeconds } = step1;
  // ---- 2. 500 inbound replies through the signed webhook ----
  const replies = await repliesStep(fake, step1);
  const { yesSeconds, otherSeconds, inboundSeconds, failed } = replies;
  // ---- 3. spacing at the default 5/s ----
  const gaps = await spacingStep(fake);
  await fake.close();

  // One machine-readable line for `npm run bench` (scripts/bench.mjs).
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      alertMs: alertSeconds * 1000,
      repliesPerSecond: REPLIES / inboundSeconds,
      yesPerSecond: CUSTOMERS / yesSeconds,
      otherPerSecond: (REPLIES - CUSTOMERS) / otherSeconds,
      refused: failed,
      nodeCpuUsPerReply: replies.nodeCpuUs,
      postgresCpuUsPerReply: replies.postgresCpuUs,
      minGapMs: Math.min(...gaps),
    })}`,
  );
  console.log(
    `\nsummary: ${kind}: 100 texts in ${ms(alertSeconds * 1000)}; ${(REPLIES / inboundSeconds).toFixed(0)} replies/s; min gap at 5/s ${ms(Math.min(...gaps))}`,
  );
}

await main();
