// `npm run bench:scale [-- <admin PostgreSQL URL>]` (issue 30): does what an owner or a customer does cost
// the same at 100,000 businesses as at 1,000?
//   1. Seeds two fresh databases beside the given one (waitlist_scale_full at SCALE, default 1 = 100,000
//      businesses, and waitlist_scale_small at 1%) with set-based SQL (scripts/bench/scale/seed.mjs).
//   2. Against each in turn, the server built and started as `npm start` starts it, a local Plivo server,
//      and autocannon on the same machine at 20 connections: p50 / p99 / req/s per path, openings from the
//      request to the last text at Plivo, and the outbox draining 10,000 queued texts.
//   3. Captures the SQL each path ran (scripts/bench/scale/capture.mjs) and writes its EXPLAIN (ANALYZE,
//      BUFFERS) at both sizes to docs/SCALE.md, with the side-by-side table.
// SCALE_SMOKE=1 (or --smoke): one tiny copy (0.1%), each path for 1 s, no timing asserted; exits 1 unless
// every path answered 2xx. BENCH_SCALE_SECONDS sets the seconds per path (default 10). Ports: 3460–3463.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { capturedSince, captureOffset, explainStatements } from './bench/scale/explain.mjs';
import { drain, load, loadPaths, openings, outboxIdle } from './bench/scale/measure.mjs';
import { FITTING, prepare, queueTexts } from './bench/scale/prepare.mjs';
import { plansSection, resultTable, verdict, writeSection } from './bench/scale/report.mjs';
import { createDatabase, describe, migrateDatabase, seed } from './bench/scale/seed.mjs';
import { ensureInstall, ensureServerBuild, log, root, serverCommand } from './lib.mjs';

const args = process.argv.slice(2);
const smoke = process.env.SCALE_SMOKE === '1' || args.includes('--smoke');
const adminUrl = args.find((arg) => !arg.startsWith('--')) ?? 'postgres://postgres@127.0.0.1:5432/test';
const fullScale = smoke ? 0.001 : Number(process.env.SCALE ?? 1);
const seconds = smoke ? 1 : Number(process.env.BENCH_SCALE_SECONDS ?? 10);
const DRAIN = smoke ? 200 : 10_000;
// SCALE_PATHS=inbound,admin: only the paths whose names contain one of these (a before/after of one fix).
const only = process.env.SCALE_PATHS?.split(',').filter(Boolean);
const wanted = (name) => !only || only.some((part) => name.includes(part));
const PORT = 3460;
const label = (scale) => `${+(scale * 100).toPrecision(3)}%`;
const sizes = smoke
  ? [{ key: 'full', db: 'waitlist_scale_smoke', scale: fullScale }]
  : [
      { key: 'small', db: 'waitlist_scale_small', scale: fullScale > 0.01 ? 0.01 : fullScale / 10 },
      { key: 'full', db: 'waitlist_scale_full', scale: fullScale },
    ];
for (const size of sizes) size.label = label(size.scale);
const docs = join(root, 'docs/SCALE.md');

await ensureInstall();
await ensureServerBuild();

const children = new Set();
function start(command, childArgs, env, options = {}) {
  const child = spawn(command, childArgs, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', options.pipe ? 'pipe' : 'ignore', 'inherit'],
    detached: true,
  });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {}
  await Promise.race([exited, sleep(10_000)]);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}
process.on('exit', () => {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
});

async function waitForAnswer(url, timeoutMs = 60_000) {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {}
    await sleep(50);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** The local Plivo server (apps/server/src/bench/scale/plivo.ts, through tsx) and its control URL. */
async function startPlivo() {
  const child = start(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'apps/server/src/bench/scale/plivo.ts'),
      String(PORT + 2),
      String(PORT + 3),
    ],
    {},
    { pipe: true },
  );
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.split('\n').find((l) => l.startsWith('PLIVO '));
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`the local Plivo server exited ${code}`)));
  });
  return { child, ...JSON.parse(line.slice('PLIVO '.length)), control: `http://127.0.0.1:${PORT + 3}` };
}

const publicUrl = `http://127.0.0.1:${PORT}`;
function startServer(databaseUrl, plivo, extraArgs = [], extraEnv = {}) {
  const [command, serverArgs] = serverCommand();
  return start(command, [...extraArgs, ...serverArgs], {
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: databaseUrl,
    PLIVO_AUTH_ID: plivo.authId,
    PLIVO_AUTH_TOKEN: plivo.authToken,
    PLIVO_API_URL: plivo.url,
    // The pipeline, not an account's send rate, is measured (as in bench:alerts).
    SMS_SEND_RATE: '1000',
    LOG_LEVEL: 'error',
    ...extraEnv,
  });
}

/** The owner opens a slot: their waiting customers get an offer, so the YES replies race for it. */
async function ownerOpensSlot(context) {
  const response = await fetch(`${publicUrl}/api/v1/openings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${context.owner.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      startsAt: new Date(Date.now() + 4 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Haircut',
      mode: 'all',
    }),
  });
  if (response.status !== 201)
    throw new Error(`the owner's opening: ${response.status} ${await response.text()}`);
}

/** Every measurement against one database; returns { results, plans }. */
async function measureSize(size, plivo) {
  log(`${size.label}: preparing the measured owner, the admin and ${FITTING}-customer openers`);
  const context = await prepare(size.url);
  // One opener is kept for the EXPLAIN pass.
  const explainOpener = context.openers.pop();
  // Plans first, on the data as seeded (the load below adds replies to the owner's conversations).
  const plans = await explainSize(size, plivo, context, explainOpener);
  const results = {};
  const server = startServer(size.url, plivo);
  try {
    await waitForAnswer(`${publicUrl}/api/v1/health`);
    const paths = loadPaths(context, plivo, publicUrl).filter(([name]) => wanted(name));
    for (const [name, makeRequest] of paths) {
      if (name === 'inbound YES') await ownerOpensSlot(context);
      await load(publicUrl, makeRequest, Math.min(2, seconds)); // warm-up: JIT, pool, caches
      results[name] = await load(publicUrl, makeRequest, seconds);
      const r = results[name];
      log(
        `${size.label} ${name}: p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.rps.toFixed(0)} req/s, ${r.bad} not 2xx of ${r.total}`,
      );
    }
    if (!wanted('opening') && !wanted('outbox')) return { results, plans, context };
    const backlog = await outboxIdle(size.url);
    log(`${size.label}: the outbox sent the replies' answers in ${backlog.toFixed(1)} s`);
    const opened = await openings(publicUrl, plivo.control, context, FITTING);
    results[`opening a slot (${FITTING} texts to Plivo)`] = opened;
    log(
      `${size.label} openings: p50 ${opened.p50.toFixed(0)} ms, p99 ${opened.p99.toFixed(0)} ms, ${opened.bad} failed of ${opened.total}`,
    );
    const drained = await drain(size.url, plivo.control, DRAIN);
    results[`outbox drain (${DRAIN.toLocaleString('en-US')} texts)`] = drained;
    log(
      `${size.label} outbox drain: ${drained.textsPerSecond.toFixed(0)} texts/s, ${drained.bad} not handed over`,
    );
  } finally {
    await stop(server);
  }
  return { results, plans, context };
}

/** The statements each path runs (one request each, captured from the server) and their plans. */
async function explainSize(size, plivo, context, opener) {
  const file = join(tmpdir(), `bench-scale-capture-${size.key}.jsonl`);
  rmSync(file, { force: true });
  const server = startServer(size.url, plivo, ['--import', join(root, 'scripts/bench/scale/capture.mjs')], {
    SCALE_CAPTURE_FILE: file,
  });
  const captured = {};
  try {
    await waitForAnswer(`${publicUrl}/api/v1/health`);
    const once = async (request) => {
      const response = await fetch(`${publicUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      await response.arrayBuffer();
      await sleep(150); // what the request queued runs right after its answer (the outbox's kick)
    };
    for (const [name, makeRequest] of loadPaths(context, plivo, publicUrl)) {
      if (!wanted(name)) continue;
      if (name === 'inbound YES') await ownerOpensSlot(context);
      await once(makeRequest(1));
      const offset = captureOffset(file);
      await once(makeRequest(2));
      captured[name] = capturedSince(file, offset);
    }
    if (opener && wanted('opening')) {
      const offset = captureOffset(file);
      await once({
        method: 'POST',
        path: '/api/v1/openings',
        headers: { authorization: `Bearer ${opener.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          startsAt: new Date(Date.now() + 3 * 3_600_000).toISOString(),
          durationMinutes: 45,
          service: 'Haircut',
          mode: 'all',
        }),
      });
      await sleep(1000);
      captured[`opening a slot (${FITTING} texts to Plivo)`] = capturedSince(file, offset);
    }
    if (wanted('outbox')) {
      const offset = captureOffset(file);
      await queueTexts(size.url, 20);
      await sleep(2500);
      captured[`outbox drain (${DRAIN.toLocaleString('en-US')} texts)`] = capturedSince(file, offset);
    }
  } finally {
    await stop(server);
  }
  const plans = {};
  for (const [name, statements] of Object.entries(captured)) {
    plans[name] = await explainStatements(size.url, statements);
  }
  rmSync(file, { force: true });
  return plans;
}

// ---- seed (SCALE_REUSE=1: keep the databases seeded before, apply new migrations only) ----
const reuse = process.env.SCALE_REUSE === '1';
const seeding = {};
for (const size of sizes) {
  if (reuse) {
    size.url = await migrateDatabase(adminUrl, size.db, join(root, 'apps/server/drizzle'));
    seeding[size.key] = await describe(size.url);
    log(`Reusing ${size.db}: ${JSON.stringify(seeding[size.key].counts)}`);
    continue;
  }
  log(`Seeding ${size.db} at SCALE=${size.scale} (${size.label} of 100,000 businesses)…`);
  const started = performance.now();
  size.url = await createDatabase(adminUrl, size.db, join(root, 'apps/server/drizzle'));
  const seeded = await seed(size.url, size.scale, (step, s, rows) =>
    log(
      `  ${step.padEnd(36)} ${s.toFixed(1).padStart(7)} s${rows === null ? '' : `  ${rows.toLocaleString('en-US')} rows`}`,
    ),
  );
  seeding[size.key] = { ...seeded, total: (performance.now() - started) / 1000 };
  log(`  ${size.db}: ${seeding[size.key].total.toFixed(1)} s in all, ${JSON.stringify(seeded.counts)}`);
}

// ---- measure ----
const plivo = await startPlivo();
const measured = {};
try {
  for (const size of sizes) measured[size.key] = await measureSize(size, plivo);
} finally {
  await stop(plivo.child);
}

// ---- report ----
const names = Object.keys(measured.full.results);
const small = measured.small ?? measured.full;
const labels = { small: sizes[0].label, full: sizes.at(-1).label };
const table = resultTable(names, small.results, measured.full.results, labels);
console.log(`\n${table}\n`);
const planSummary = plansSection(names, { small: small.plans, full: measured.full.plans }, labels);
console.log(`${planSummary.slice(0, planSummary.indexOf('\n\n'))}\n`);
const bad = names.filter((name) => sizes.some((size) => (measured[size.key].results[name]?.bad ?? 1) > 0));
if (smoke) {
  for (const size of sizes) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${size.db} with (force)`).catch(() => {});
    await admin.end();
  }
  if (bad.length) console.error(`Paths not answered 2xx every time: ${bad.join(', ')}`);
  process.exit(bad.length ? 1 : 0);
}
if (only) process.exit(0); // a subset: printed, not recorded

const seedLines = sizes.map((size) => {
  const s = seeding[size.key];
  if (!s.seconds) return `- ${size.label} (\`${size.db}\`): reused, ${JSON.stringify(s.counts)}`;
  const steps = Object.entries(s.seconds)
    .map(([step, value]) => `${step} ${value.toFixed(1)} s`)
    .join(', ');
  const c = s.counts;
  return `- ${size.label} (\`${size.db}\`): ${c.businesses.toLocaleString('en-US')} businesses, ${c.customers.toLocaleString('en-US')} customers, ${c.openings.toLocaleString('en-US')} openings, ${c.offers.toLocaleString('en-US')} offers, ${c.texts.toLocaleString('en-US')} texts, ${c.replies.toLocaleString('en-US')} replies, ${(Number(c.bytes) / 2 ** 30).toFixed(2)} GiB; seeded in ${s.total.toFixed(0)} s (${steps})`;
});
const load1 = (await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const missed = names.filter((name) => !verdict(name, small.results[name], measured.full.results[name]).met);
writeSection(
  docs,
  'results',
  [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}, ${seconds} s per path at 20 connections after a warm-up, load average ${load1} at the end.`,
    '',
    ...seedLines,
    '',
    table,
    '',
    missed.length ? `Missed: ${missed.join('; ')}.` : 'Every path met its targets.',
  ].join('\n'),
);
writeSection(docs, 'plans', plansSection(names, { small: small.plans, full: measured.full.plans }, labels));
log(`docs/SCALE.md written (${missed.length} of ${names.length} paths missed a target)`);
