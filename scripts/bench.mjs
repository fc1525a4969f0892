// `npm run bench`: every figure of issue 16 in one run, each beside a baseline measured in the same run,
// printed as one table and recorded in docs/BENCHMARKS.md (between the bench markers).
//   1. GET /auth/me through the built product vs bare Fastify + pg routes (scripts/bench/bare-server.mjs: the
//      same job, and one row by primary key; autocannon, 50 connections, 8 s each, in 4 s rounds)
//   2. inbound replies through the signed webhook on PostgreSQL (apps/server/src/bench/alerts.ts)
//   3. idle server memory (RSS) on PostgreSQL and on PGlite
//   4. `npm start` to first answer (built; PGlite, its data directory already made)
//   5. the first screen's JavaScript (compressed sizes from the build) and how the server sends it
//   6. /login LCP on a slow phone, CLS on /account and its Billing tab (Debian's Chromium)
// Needs PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh database
// is made beside it and dropped). Ports: BENCH_PORT (default 3410) to BENCH_PORT+4.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { measurePages } from './bench/browser.mjs';
import { FIRST_SCREEN_BUDGET_BYTES, firstScreenJs } from './bench/bundle.mjs';
import {
  ensureChromium,
  ensureInstall,
  ensureServerBuild,
  ensureWebBuild,
  log,
  root,
  serverCommand,
} from './lib.mjs';
import { startProcess, stopProcess, waitForAnswer } from './processes.mjs';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const basePort = Number(process.env.BENCH_PORT ?? 3410);
const duration = Number(process.env.BENCH_DURATION ?? 8);
const quick = process.env.BENCH_QUICK === '1';

await ensureInstall();
await ensureWebBuild();
await ensureServerBuild();

/** Resident set size of a process and its children (npm start runs the server as a child). */
function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// ---- PostgreSQL: a fresh database, a verified owner with a session ----
const dbName = `bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${dbName}`);
const dbUrl = new URL(adminUrl);
dbUrl.pathname = `/${dbName}`;
const databaseUrl = dbUrl.toString();
const results = {};
const productEnv = (port, extra = {}) => ({
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://127.0.0.1:${port}`,
  ...extra,
});

try {
  // ---- 4. npm start to first answer (PGlite; first start makes the data directory, not measured) ----
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  try {
    const port = basePort + 3;
    const env = productEnv(port, { DATA_DIR: dataDir });
    const first = startProcess('npm', ['start'], env);
    await waitForAnswer(`http://127.0.0.1:${port}/api/v1/health`, 120_000);
    await stopProcess(first);
    const times = await timesToFirstAnswer('npm', ['start'], env, port);
    results.startMs = median(times);
    log(`npm start → first answer: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
    // Beside it, on the same machine load: the same server started from its TypeScript sources through tsx,
    // as `npm start` ran it before issue 16 (compiling at run time), without npm's own start-up.
    const tsxTimes = await timesToFirstAnswer(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/main.ts'],
      env,
      port,
    );
    results.tsxStartMs = median(tsxTimes);
    log(`the sources through tsx → first answer: ${tsxTimes.map((t) => t.toFixed(0)).join(', ')} ms`);
    // The stack's floor, on the same machine load: a bare `node` process that loads Fastify, opens PGlite on
    // a copy of the same data directory and answers (scripts/bench/bare-start.mjs).
    const bareTimes = await timesToFirstAnswer(
      process.execPath,
      ['scripts/bench/bare-start.mjs', String(port), dataDir],
      {},
      port,
    );
    results.bareStartMs = median(bareTimes);
    log(`bare node + Fastify + PGlite → first answer: ${bareTimes.map((t) => t.toFixed(0)).join(', ')} ms`);

    // ---- 3b. idle RSS on PGlite (the server process itself, started as npm start starts it) ----
    const [command, args] = serverCommand();
    const server = startProcess(command, args, env);
    await waitForAnswer(`http://127.0.0.1:${port}/api/v1/health`);
    await sleep(3000);
    results.rssPglite = rssMb(server.pid);
    await stopProcess(server);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  // ---- the product on PostgreSQL ----
  const productPort = basePort;
  const [command, args] = serverCommand();
  const product = startProcess(command, args, productEnv(productPort, { DATABASE_URL: databaseUrl }));
  await waitForAnswer(`http://127.0.0.1:${productPort}/api/v1/health`);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const token = randomBytes(32).toString('base64url');
  const {
    rows: [user],
  } = await db.query(
    `insert into users (first_name, last_name, email, password_hash, verified, business_name, business_phone,
       business_address, city, state, zip, business_verification_status, trial_end_date)
     values ('Bench', 'Owner', 'bench@example.com', 'x', true, 'Bench Salon', '(555) 010-1234', '1 Main St',
       'Springfield', 'IL', '62701', 'submitted', now() + interval '14 days') returning id`,
  );
  await db.query(
    `insert into sessions (user_id, token_hash, expires_at) values ($1, $2, now() + interval '1 day')`,
    [user.id, createHash('sha256').update(token).digest('hex')],
  );
  await db.end();
  await sleep(3000);
  results.rssPostgres = rssMb(product.pid);

  // ---- 1. GET /auth/me vs the bare routes: the same job (token, session, user JSON) and one row ----
  const bare = startProcess(process.execPath, [
    'scripts/bench/bare-server.mjs',
    String(basePort + 1),
    databaseUrl,
    user.id,
    'same-job',
  ]);
  const bareRow = startProcess(process.execPath, [
    'scripts/bench/bare-server.mjs',
    String(basePort + 4),
    databaseUrl,
    user.id,
    'row',
  ]);
  await waitForAnswer(`http://127.0.0.1:${basePort + 1}/me`);
  await waitForAnswer(`http://127.0.0.1:${basePort + 4}/me`);
  // The server's own CPU time per request (user + system, from /proc): unlike rates and latencies, it
  // hardly moves with what else the machine runs, so its ratio is the steadiest figure of the two.
  const cpuMs = (pid) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
  };
  const load = async (url, headers, seconds, pid) => {
    const before = cpuMs(pid);
    const result = await autocannon({ url, connections: 50, duration: seconds, headers });
    return {
      requests: result.requests.total,
      seconds,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      cpuMs: cpuMs(pid) - before,
    };
  };
  /** Rounds of one side, summed: requests per second over them all, the worse p99, CPU per request. */
  const total = (rounds) => {
    const requests = rounds.reduce((sum, round) => sum + round.requests, 0);
    return {
      rps: requests / rounds.reduce((sum, round) => sum + round.seconds, 0),
      p99: Math.max(...rounds.map((round) => round.p99)),
      errors: rounds.reduce((sum, round) => sum + round.errors, 0),
      cpuUs: (rounds.reduce((sum, round) => sum + round.cpuMs, 0) * 1000) / Math.max(1, requests),
    };
  };
  const auth = { authorization: `Bearer ${token}` };
  const meUrl = `http://127.0.0.1:${productPort}/api/v1/auth/me`;
  const bareUrl = `http://127.0.0.1:${basePort + 1}/me`;
  const bareRowUrl = `http://127.0.0.1:${basePort + 4}/me`;
  const check = await fetch(meUrl, { headers: auth });
  if (check.status !== 200) throw new Error(`GET /auth/me answered ${check.status}: ${await check.text()}`);
  await load(meUrl, auth, 2, product.pid); // warm-up: JIT, pool, prepared statements
  await load(bareUrl, auth, 2, bare.pid);
  await load(bareRowUrl, {}, 2, bareRow.pid);
  // Side by side in time as well (product, same-job, row, row, same-job, product: half the duration each,
  // twice): the machine's load drifts over a run, and taking the sides in one order would hand the drift to one.
  const half = duration / 2;
  const me = [await load(meUrl, auth, half, product.pid)];
  const baseline = [await load(bareUrl, auth, half, bare.pid)];
  const rowBaseline = [
    await load(bareRowUrl, {}, half, bareRow.pid),
    await load(bareRowUrl, {}, half, bareRow.pid),
  ];
  baseline.push(await load(bareUrl, auth, half, bare.pid));
  me.push(await load(meUrl, auth, half, product.pid));
  results.me = total(me);
  results.bare = total(baseline);
  results.bareRow = total(rowBaseline);
  await stopProcess(bare);
  await stopProcess(bareRow);
  log(
    `GET /auth/me ${results.me.rps.toFixed(0)} req/s p99 ${results.me.p99} ms ${results.me.cpuUs.toFixed(0)} µs CPU/req · bare same-job ${results.bare.rps.toFixed(0)} req/s p99 ${results.bare.p99} ms ${results.bare.cpuUs.toFixed(0)} µs CPU/req · bare row ${results.bareRow.rps.toFixed(0)} req/s`,
  );

  // ---- 5. the first screen's JavaScript, and how it is sent ----
  const bundle = firstScreenJs(join(root, 'apps/web/dist'));
  const asset = bundle.files.find((file) => file.startsWith('assets/'));
  const assetAnswer = await fetch(`http://127.0.0.1:${productPort}/${asset}`, {
    headers: { 'accept-encoding': 'br, gzip' },
  });
  await assetAnswer.arrayBuffer();
  const indexAnswer = await fetch(`http://127.0.0.1:${productPort}/login`, {
    headers: { 'accept-encoding': 'br, gzip' },
  });
  await indexAnswer.arrayBuffer();
  results.bundle = {
    ...bundle,
    encoding: assetAnswer.headers.get('content-encoding') ?? 'none',
    assetCache: assetAnswer.headers.get('cache-control') ?? 'none',
    indexCache: indexAnswer.headers.get('cache-control') ?? 'none',
  };

  // ---- 6. LCP and CLS in Chromium on a slow phone ----
  await ensureChromium();
  results.vitals = await measurePages(
    `http://127.0.0.1:${productPort}`,
    [
      { name: 'login', path: '/login', waitFor: 'form' },
      { name: 'account', path: '/account', token, waitFor: '.account__tabs' },
      { name: 'billing', path: '/account?tab=billing', token, waitFor: '.account__tabs' },
    ],
    { runs: quick ? 1 : 3 },
  );
  await stopProcess(product);

  // ---- 2. inbound replies through the signed webhook (PostgreSQL) ----
  const alertsOut = await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/bench/alerts.ts'], {
      cwd: join(root, 'apps/server'),
      env: { ...process.env, TEST_DB: 'postgres', TEST_DATABASE_URL: adminUrl, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`bench:alerts exited ${code}\n${out}`)),
    );
  });
  const line = alertsOut.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
  results.alerts = JSON.parse(line.slice('BENCH_RESULT '.length));
} finally {
  await admin.query(`drop database if exists ${dbName} with (force)`).catch(() => {});
  await admin.end();
}

// ---- the table ----
const kb = (bytes) => `${(bytes / 1024).toFixed(0)} KB`;
const { me, bare, bareRow, vitals, bundle, alerts } = results;
const ratio = me.rps / bare.rps;
const rows = [
  [
    '`GET /auth/me` vs bare Fastify + `pg` doing the same job (token hashed, session + user JSON in one query)',
    `${me.rps.toFixed(0)} vs ${bare.rps.toFixed(0)} req/s (${ratio.toFixed(2)}×); p99 ${me.p99} vs ${bare.p99} ms (${(me.p99 / Math.max(bare.p99, 1)).toFixed(1)}×); ${me.errors} errors; server CPU ${me.cpuUs.toFixed(0)} vs ${bare.cpuUs.toFixed(0)} µs per request (${(me.cpuUs / bare.cpuUs).toFixed(1)}×); against one row by primary key ${bareRow.rps.toFixed(0)} req/s (${(me.rps / bareRow.rps).toFixed(2)}×)`,
    '≥ 0.9× the same-job route, p99 ≤ 2× baseline, 0 errors',
    ratio >= 0.9 && me.p99 <= 2 * Math.max(bare.p99, 1) && me.errors === 0,
  ],
  [
    'inbound replies through the signed webhook, PostgreSQL',
    `${alerts.repliesPerSecond.toFixed(0)}/s (YES race ${alerts.yesPerSecond.toFixed(0)}/s, other replies ${alerts.otherPerSecond.toFixed(0)}/s); ${alerts.refused} refused`,
    '≥ 1,000/s on a quiet machine',
    alerts.repliesPerSecond >= 1000,
  ],
  [
    'idle server memory (RSS)',
    `${results.rssPostgres.toFixed(0)} MB on PostgreSQL, ${results.rssPglite.toFixed(0)} MB on PGlite`,
    '≤ 150 MB / ≤ 350 MB',
    results.rssPostgres <= 150 && results.rssPglite <= 350,
  ],
  [
    '`npm start` to first answer, built',
    `${(results.startMs / 1000).toFixed(2)} s, ${(results.startMs / results.bareStartMs).toFixed(1)}× a bare node + Fastify + PGlite start (${(results.bareStartMs / 1000).toFixed(2)} s); the sources through tsx, without npm: ${(results.tsxStartMs / 1000).toFixed(2)} s`,
    '≤ 2 s',
    results.startMs <= 2000,
  ],
  [
    'first screen (`/login`) JavaScript',
    `${kb(bundle.raw)} raw, ${kb(bundle.gzip)} gzip, ${kb(bundle.brotli)} brotli in ${bundle.files.length} files; sent ${bundle.encoding}; assets \`${bundle.assetCache}\`, index.html \`${bundle.indexCache}\``,
    '≤ 150 KB compressed, sent compressed, immutable',
    bundle.gzip <= FIRST_SCREEN_BUDGET_BYTES &&
      bundle.encoding !== 'none' &&
      /immutable/.test(bundle.assetCache),
  ],
  [
    '`/login` LCP on a slow phone',
    `${(vitals.login.lcp / 1000).toFixed(2)} s`,
    '≤ 2.5 s',
    vitals.login.lcp <= 2500,
  ],
  [
    'CLS on `/account` and the Billing tab',
    `${vitals.account.cls.toFixed(3)} / ${vitals.billing.cls.toFixed(3)}`,
    '< 0.05',
    vitals.account.cls < 0.05 && vitals.billing.cls < 0.05,
  ],
];
const date = new Date().toISOString().slice(0, 10);
const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const table = [
  `Run ${date}, Node ${process.version}, load average ${load1} at the end of the run.`,
  '',
  '| what | measured | target | met |',
  '| --- | --- | --- | --- |',
  ...rows.map(
    ([what, measured, target, met]) => `| ${what} | ${measured} | ${target} | ${met ? 'yes' : '**no**'} |`,
  ),
].join('\n');
console.log(`\n${table}\n`);
const docs = join(root, 'docs/BENCHMARKS.md');
const text = readFileSync(docs, 'utf8');
const begin = '<!-- bench:start -->';
const end = '<!-- bench:end -->';
if (text.includes(begin) && text.includes(end) && process.env.BENCH_WRITE !== '0') {
  const updated = `${text.slice(0, text.indexOf(begin) + begin.length)}\n${table}\n${text.slice(text.indexOf(end))}`;
  writeFileSync(docs, updated);
  log('Recorded in docs/BENCHMARKS.md');
}
process.exit(0);

/** Starts the server (1 or 3 times) and measures each start until /login first answers 200, in ms. */
async function timesToFirstAnswer(command, args, env, port) {
  const times = [];
  for (let i = 0; i < (quick ? 1 : 3); i += 1) {
    const started = performance.now();
    const child = startProcess(command, args, env);
    while (performance.now() - started < 60_000) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/login`);
        await response.arrayBuffer();
        if (response.ok) break;
      } catch {}
      await sleep(5);
    }
    times.push(performance.now() - started);
    await stopProcess(child);
  }
  return times;
}
