/**
 * `npm run bench:dashboard` (issue 14): figures, not a timed test.
 *
 * Seeds one business with 10,000 openings over two years (filled, expired and closed, with prices), 100
 * customers, ten texts per opening (100,000 messages) and four other businesses with 2,500 openings each,
 * so every query has to find its own rows through the indexes. Then measures GET /dashboard/earnings for
 * each range through the whole Fastify app (auth, validation, the three queries, JSON), with GET /auth/me
 * (the cheapest authenticated call, one indexed lookup) measured beside it in the same run as the baseline.
 * Prints the query plans so the indexes in use are visible.
 *
 * Runs on in-memory PGlite; `TEST_DB=postgres TEST_DATABASE_URL=postgres://…/test` runs it on PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { customers, messages, openings } from '../db/schema.ts';
import { addDays, startOfLocalDay } from '../features/dashboard/dashboard.service.ts';
import { owner } from '../features/waitlist/waitlist.test-helpers.ts';
import { auth, createTestApp } from '../test/test-app.ts';
import { mulberry32, percentile } from './stats.ts';

const OPENINGS = 10_000;
const OTHER_BUSINESSES = 4;
const OTHER_OPENINGS = 2_500;
const TEXTS_PER_OPENING = 10;
const CUSTOMERS = 100;
const REQUESTS = 100;
const NOW = new Date('2026-11-23T15:00:00Z');
const DAY = 86_400_000;

const t = await createTestApp({ startAt: NOW });
const databaseName = process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
try {
  const random = mulberry32(14);
  const seedStarted = performance.now();
  const bench = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
  const others = await Promise.all(
    Array.from({ length: OTHER_BUSINESSES }, () => owner(t, { plan: 'growth', timeZone: 'America/Chicago' })),
  );
  const customerRows = await t.database.db
    .insert(customers)
    .values(
      Array.from({ length: CUSTOMERS }, (_, i) => ({
        userId: bench.id,
        name: `Customer ${i}`,
        phone: `+1212555${String(1000 + i).padStart(4, '0')}`,
        position: i + 1,
        consentMethod: 'verbal' as const,
        optedOut: i % 20 === 0,
        optedOutAt: i % 20 === 0 ? new Date(NOW.getTime() - i * 5 * DAY) : null,
      })),
    )
    .returning({ id: customers.id, phone: customers.phone });

  async function seedOpenings(userId: string, count: number, withTexts: boolean) {
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, () => {
        const createdAt = new Date(NOW.getTime() - Math.floor(random() * 730 * DAY));
        const roll = random();
        const status = roll < 0.62 ? 'filled' : roll < 0.9 ? 'expired' : 'closed';
        return {
          userId,
          startsAt: new Date(createdAt.getTime() + 6 * 3_600_000),
          durationMinutes: 45,
          service: 'Haircut',
          priceCents: random() < 0.85 ? 3000 + Math.floor(random() * 12_000) : null,
          status: status as 'filled' | 'expired' | 'closed',
          mode: 'all' as const,
          createdAt,
          filledAt:
            status === 'filled' ? new Date(createdAt.getTime() + Math.floor(random() * 90) * 60_000) : null,
          localDate: createdAt.toISOString().slice(0, 10),
        };
      });
      const inserted = await t.database.db
        .insert(openings)
        .values(rows)
        .returning({ id: openings.id, createdAt: openings.createdAt });
      if (!withTexts) continue;
      const texts = inserted.flatMap((opening) =>
        Array.from({ length: TEXTS_PER_OPENING }, (_, i) => {
          const customer = customerRows[Math.floor(random() * customerRows.length)]!;
          const roll = random();
          return {
            userId,
            customerId: customer.id,
            openingId: opening.id,
            direction: i === 0 ? ('in' as const) : ('out' as const),
            fromNumber: bench.number,
            toNumber: customer.phone,
            body: 'A spot just opened. Reply YES to claim it.',
            segments: 1,
            encoding: 'GSM-7',
            status: (i === 0
              ? 'received'
              : roll < 0.9
                ? 'delivered'
                : roll < 0.95
                  ? 'sent'
                  : 'undelivered') as 'delivered',
            createdAt: new Date(opening.createdAt.getTime() + i * 1000),
          };
        }),
      );
      for (let offset = 0; offset < texts.length; offset += 2000) {
        await t.database.db.insert(messages).values(texts.slice(offset, offset + 2000));
      }
    }
  }
  await seedOpenings(bench.id, OPENINGS, true);
  for (const other of others) await seedOpenings(other.id, OTHER_OPENINGS, false);
  // What autovacuum does after a bulk load: statistics for the planner.
  await t.database.db.execute(sql`vacuum analyze openings`);
  await t.database.db.execute(sql`vacuum analyze messages`);
  await t.database.db.execute(sql`vacuum analyze customers`);
  const seedMs = performance.now() - seedStarted;

  console.log(
    `Earnings dashboard on ${databaseName}: ${OPENINGS.toLocaleString('en-US')} openings, ${(
      OPENINGS * TEXTS_PER_OPENING
    ).toLocaleString('en-US')} texts and ${CUSTOMERS} customers for the business measured, ` +
      `${(OTHER_BUSINESSES * OTHER_OPENINGS).toLocaleString('en-US')} openings of ${OTHER_BUSINESSES} others; seeded in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${REQUESTS} requests per row through app.inject after 10 warm-up requests; the baseline (GET /auth/me) is measured between the rows\n`,
  );

  const get = (url: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: auth(bench.token) });
  async function measure(url: string) {
    for (let i = 0; i < 10; i += 1) await get(url);
    const timings: number[] = [];
    let answer: unknown;
    for (let i = 0; i < REQUESTS; i += 1) {
      const started = performance.now();
      const response = await get(url);
      timings.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      answer = response.json();
    }
    timings.sort((a, b) => a - b);
    return { p50: percentile(timings, 50), p95: percentile(timings, 95), answer };
  }

  const ranges = [
    { name: 'this week', url: '/dashboard/earnings?range=week' },
    { name: 'this month', url: '/dashboard/earnings?range=month' },
    { name: 'last 90 days', url: '/dashboard/earnings?range=90d' },
    {
      name: 'custom: a full year (53 weekly bars)',
      url: '/dashboard/earnings?range=custom&from=2025-11-24&to=2026-11-23',
    },
  ];
  const rows: string[] = [];
  for (const range of ranges) {
    const baseline = await measure('/auth/me');
    const result = await measure(range.url);
    const period = (result.answer as { data: { period: { openingsOpened: number; weeks: unknown[] } } }).data
      .period;
    rows.push(
      `| ${range.name.padEnd(38)} | ${result.p50.toFixed(1).padStart(6)} | ${result.p95.toFixed(1).padStart(6)} | ${baseline.p50
        .toFixed(1)
        .padStart(8)} | ${(result.p50 / baseline.p50).toFixed(1).padStart(5)}× | ${String(
        period.openingsOpened,
      ).padStart(7)} | ${String(period.weeks.length).padStart(5)} |`,
    );
  }
  console.log(`| ${'range'.padEnd(38)} | p50 ms | p95 ms | /auth/me | ratio | openings | weeks |`);
  console.log(`| ${'-'.repeat(38)} | -----: | -----: | -------: | ----: | -------: | ----: |`);
  for (const row of rows) console.log(row);

  const from = '2025-11-24';
  const to = '2026-11-23';
  const lo = startOfLocalDay(from, 'America/New_York').toISOString();
  const hi = startOfLocalDay(addDays(to, 1), 'America/New_York').toISOString();
  const plans = {
    'openings of a year (the totals and the weekly series read these rows)': sql`explain (analyze, costs off)
      select count(*), sum(price_cents) filter (where status = 'filled') from ${openings}
      where user_id = ${bench.id} and created_at >= ${lo}::timestamptz and created_at < ${hi}::timestamptz`,
    'texts of a year': sql`explain (analyze, costs off)
      select count(*) filter (where status = 'delivered') from ${messages}
      where user_id = ${bench.id} and direction = 'out' and created_at >= ${lo}::timestamptz and created_at < ${hi}::timestamptz`,
  };
  for (const [name, query] of Object.entries(plans)) {
    const result = (await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, string>> };
    console.log(`\nQuery plan, ${name}:`);
    for (const row of result.rows) console.log(`  ${Object.values(row)[0]}`);
  }
} finally {
  await t.close();
}
