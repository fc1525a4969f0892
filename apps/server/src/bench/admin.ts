/**
 * `npm run bench:admin` (issue 6, at 100,000 users since issue 30): figures, not a timed test.
 *
 * Seeds 100,000 owners (ADMIN_USERS sets another number), then measures GET /admin/users (through the whole Fastify app: auth, validation,
 * the two queries, serialisation) with a search and a sort: p50 and p99 over 200 requests per scenario.
 * Prints the query plan of a search so the indexes in use are visible.
 *
 * Runs on in-memory PGlite; `TEST_DB=postgres TEST_DATABASE_URL=postgres://…/test` runs it on PostgreSQL.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { users } from '../db/schema.ts';
import { auth, createTestApp, verifiedUser } from '../test/test-app.ts';
import { mulberry32, percentile } from './stats.ts';

const USERS = Number(process.env.ADMIN_USERS ?? 100_000);
const REQUESTS = 200;

const firstNames = [
  'Amy',
  'Bob',
  'Cara',
  'Dan',
  'Eve',
  'Finn',
  'Gia',
  'Hugo',
  'Iris',
  'Jack',
  'Kira',
  'Liam',
  'Maya',
  'Noah',
  'Olga',
  'Pete',
  'Quinn',
  'Rosa',
  'Sam',
  'Tara',
];
const lastNames = [
  'Adams',
  'Brown',
  'Chen',
  'Diaz',
  'Evans',
  'Ford',
  'Garcia',
  'Hill',
  'Ito',
  'Jones',
  'Khan',
  'Lopez',
  'Moore',
  'Nguyen',
  'Olsen',
  'Patel',
];
const trades = [
  'Salon',
  'Barbers',
  'Dental',
  'Clinic',
  'Nails',
  'Spa',
  'Plumbing',
  'Physio',
  'Tattoo',
  'Vets',
];
const plans = ['free_trial', 'starter', 'growth'] as const;

const t = await createTestApp({ env: { ADMIN_EMAILS: 'bench@admin.test' } });
const databaseName = process.env.TEST_DB === 'postgres' ? 'PostgreSQL' : 'PGlite (in memory)';
try {
  const random = mulberry32(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const seedStarted = performance.now();
  for (let start = 0; start < USERS; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, USERS - start) }, (_, offset) => {
      const index = start + offset;
      const firstName = pick(firstNames);
      const lastName = pick(lastNames);
      const plan = pick(plans);
      return {
        firstName,
        lastName,
        email: `${firstName}.${lastName}.${index}@example.com`.toLowerCase(),
        businessName: `${lastName} ${pick(trades)} ${index}`,
        businessPhone: `${200 + Math.floor(random() * 700)}555${String(index).padStart(4, '0')}`,
        verified: random() < 0.8,
        subscriptionPlan: plan,
        subscriptionStatus: plan === 'free_trial' ? 'trialing' : random() < 0.1 ? 'past_due' : 'active',
        createdAt: new Date(Date.UTC(2025, 0, 1) + index * 45 * 60_000),
      };
    });
    await t.database.db.insert(users).values(rows);
  }
  // What autovacuum does after a bulk load: statistics for the planner, and the GIN indexes' pending
  // lists merged (until then a trigram index scan costs more than reading 10,000 rows).
  await t.database.db.execute(sql`vacuum analyze users`);
  const seedMs = performance.now() - seedStarted;
  const admin = await verifiedUser(t, { email: 'bench@admin.test' });

  const scenarios: Array<{ name: string; queries: string[] }> = [
    {
      name: 'search a name, sort by first name',
      queries: firstNames.map((name) => `search=${name.toLowerCase().slice(0, 3)}&sort=firstName`),
    },
    {
      name: 'search two words (name + trade), sort by business',
      queries: lastNames.map(
        (name, i) =>
          `search=${encodeURIComponent(`${name} ${trades[i % trades.length]}`)}&sort=businessName&order=desc`,
      ),
    },
    {
      name: 'search a phone fragment "(555) 01…", sort by email',
      queries: Array.from(
        { length: 20 },
        (_, i) => `search=${encodeURIComponent(`555-${String(i).padStart(2, '0')}`)}&sort=email`,
      ),
    },
    {
      name: 'filter plan + unverified, search, sort by plan',
      queries: trades.map(
        (trade) => `plan=growth&verified=false&search=${trade.toLowerCase()}&sort=subscriptionPlan`,
      ),
    },
    { name: 'no search, default sort (newest first), page 200', queries: ['page=200&pageSize=25'] },
  ];

  console.log(
    `Admin user list on ${databaseName}: ${USERS.toLocaleString('en-US')} users seeded in ${(seedMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `${REQUESTS} requests per scenario through app.inject (auth, validation, 2 queries, JSON), after 20 warm-up requests\n`,
  );
  const request = (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/v1/admin/users?${query}`, headers: auth(admin.token) });
  const rows: string[] = [];
  for (const scenario of scenarios) {
    for (let i = 0; i < 20; i += 1) await request(scenario.queries[i % scenario.queries.length] as string);
    const timings: number[] = [];
    let matched = 0;
    let bounded = false;
    for (let i = 0; i < REQUESTS; i += 1) {
      const query = scenario.queries[i % scenario.queries.length] as string;
      const started = performance.now();
      const response = await request(query);
      timings.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`${query}: ${response.statusCode} ${response.body}`);
      const body = response.json() as { total: number; totalExact: boolean };
      matched += body.total;
      bounded ||= !body.totalExact;
    }
    timings.sort((a, b) => a - b);
    const mean = timings.reduce((sum, value) => sum + value, 0) / timings.length;
    rows.push(
      `| ${scenario.name.padEnd(52)} | ${percentile(timings, 50).toFixed(1).padStart(6)} | ${percentile(timings, 99).toFixed(1).padStart(6)} | ${mean.toFixed(1).padStart(6)} | ${Math.round(
        matched / REQUESTS,
      )
        .toLocaleString('en-US')
        .concat(bounded ? '+' : '')
        .padStart(7)} |`,
    );
  }
  console.log(`| ${'scenario'.padEnd(52)} | p50 ms | p99 ms | meanms | matches |`);
  console.log(`| ${'-'.repeat(52)} | -----: | -----: | -----: | ------: |`);
  for (const row of rows) console.log(row);

  const queryPlans = {
    'a business fragment (selective), sorted by business': sql`explain (analyze, costs off) select * from users where search_text like '%dental 12%' order by lower(business_name), id limit 25`,
    'a phone fragment': sql`explain (analyze, costs off) select * from users where phone_digits like '%5550123%' order by email, id limit 25`,
    'a common name, sorted by first name': sql`explain (analyze, costs off) select * from users where search_text like '%amy%' order by lower(first_name), id limit 25`,
    'the full count of a common name (before issue 30: every match read)': sql`explain (analyze, costs off) select count(*) from users where search_text like '%amy%'`,
    'the bounded count of a common name (page 1: up to 1,001 rows)': sql`explain (analyze, costs off) select count(*) from (select 1 from users where search_text like '%amy%' limit 1001) matching`,
  };
  for (const [name, query] of Object.entries(queryPlans)) {
    const result = (await t.database.db.execute(query)) as unknown as { rows: Array<Record<string, string>> };
    console.log(`\nQuery plan, ${name}:`);
    for (const row of result.rows) console.log(`  ${Object.values(row)[0]}`);
  }
} finally {
  await t.close();
}
