// `npm run bench:scale [-- <admin PostgreSQL URL>]` (issue 30): does what an owner or a customer does cost
// the same at 100,000 businesses as at 1,000?
//   1. Seeds two fresh databases beside the given one (waitlist_scale_full at SCALE, default 1 = 100,000
//      businesses, and waitlist_scale_small at 1%) with set-based SQL (scripts/bench/scale/seed.mjs).
//   2. The server built and started as `npm start` starts it, one per database side by side, a local Plivo
//      server, and autocannon on the same machine at 20 connections: p50 / p99 / req/s per path, openings
//      from the request to the last text at Plivo, and the outbox draining 10,000 queued texts. Each path is
//      measured in rounds 1%, full, full, 1% (half the time each), so the machine's drift (other work on
//      it) is shared by both sides instead of landing on one.
//   3. Captures the SQL each path ran (scripts/bench/scale/capture.mjs) and writes its EXPLAIN (ANALYZE,
//      BUFFERS) at both sizes to docs/SCALE.md, with the side-by-side table.
// SCALE_SMOKE=1 (or --smoke): one tiny copy (0.1%), each path asked 100 times (no warm-up), no timing asserted; exits 1 unless
// every path answered 2xx. BENCH_SCALE_SECONDS sets the seconds per path (default 10). Ports: 3460–3491.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { capturedSince, captureOffset, explainStatements } from './bench/scale/explain.mjs';
import { drain, load, loadPaths, openings, outboxIdle } from './bench/scale/measure.mjs';
import { FITTING, prepare, queueTexts } from './bench/scale/prepare.mjs';
import { cpuMeter, startPlivo, startServer } from './bench/scale/processes.mjs';
import { cpuTable, plansSection, resultTable, verdict, writeSection } from './bench/scale/report.mjs';
import { createDatabase, describe, migrateDatabase, seed } from './bench/scale/seed.mjs';
import { ensureInstall, ensureServerBuild, log, root } from './lib.mjs';
import { stopProcess } from './processes.mjs';

const args = process.argv.slice(2);
const smoke = process.env.SCALE_SMOKE === '1' || args.includes('--smoke');
const adminUrl = args.find((arg) => !arg.startsWith('--')) ?? 'postgres://postgres@127.0.0.1:5432/test';
const fullScale = smoke ? 0.001 : Number(process.env.SCALE ?? 1);
const seconds = smoke ? 1 : Number(process.env.BENCH_SCALE_SECONDS ?? 10);
const DRAIN = smoke ? 200 : 10_000;
const SMOKE_REQUESTS = 100;
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
sizes.forEach((size, i) => {
  size.label = label(size.scale);
  size.port = PORT + 10 * i;
  size.publicUrl = `http://127.0.0.1:${size.port}`;
});
const docs = join(root, 'docs/SCALE.md');

await ensureInstall();
await ensureServerBuild();

/** The owner opens a slot: their waiting customers get an offer, so the YES replies race for it. */
async function ownerOpensSlot(size) {
  const { context } = size;
  const response = await fetch(`${size.publicUrl}/api/v1/openings`, {
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

const BACKGROUND = 'background: the workers on an idle server';

/** The businesses whose texts the drain queues: the owner and the openers (40 at full size). */
const senders = (size) => [size.context.owner.id, ...size.context.openers.map((opener) => opener.id)];

/** Rounds of one side combined: the mean p50, the worst p99, requests over the whole time. */
function combine(rounds) {
  const total = rounds.reduce((sum, r) => sum + r.total, 0);
  return {
    p50: rounds.reduce((sum, r) => sum + r.p50, 0) / rounds.length,
    p99: Math.max(...rounds.map((r) => r.p99)),
    rps: total / (rounds.length * Math.max(1, seconds / 2)),
    total,
    bad: rounds.reduce((sum, r) => sum + r.bad, 0),
    appCpuMs: rounds.reduce((sum, r) => sum + r.appCpuMs, 0) / Math.max(1, total),
    dbCpuMs: rounds.reduce((sum, r) => sum + r.dbCpuMs, 0) / Math.max(1, total),
  };
}

/** Every timed measurement, both databases' servers running, each path in rounds A B B A. */
async function measureAll(plivo) {
  const order = [...sizes, ...[...sizes].reverse()];
  for (const size of sizes) {
    size.results = {};
    size.server = await startServer(size, plivo);
    size.paths = new Map(loadPaths(size.context, plivo, size.publicUrl));
    size.cpu = cpuMeter(size.server.pid, size.db);
  }
  try {
    for (const name of sizes[0].paths.keys()) {
      if (!wanted(name)) continue;
      for (const size of sizes) {
        if (name === 'inbound YES') await ownerOpensSlot(size);
        // Warm-up: JIT, pool, caches. The smoke test checks answers, not speed: no warm-up, 100 requests a path.
        if (!smoke) await load(size.publicUrl, size.paths.get(name), { seconds: Math.min(2, seconds) });
      }
      const span = smoke ? { requests: SMOKE_REQUESTS } : { seconds: Math.max(1, seconds / 2) };
      const rounds = new Map(sizes.map((size) => [size, []]));
      for (const size of order) {
        rounds.get(size).push(await load(size.publicUrl, size.paths.get(name), span, size.cpu));
      }
      for (const size of sizes) {
        const r = combine(rounds.get(size));
        size.results[name] = r;
        log(
          `${size.label} ${name}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99} ms, ${r.rps.toFixed(0)} req/s, ${r.bad} not 2xx of ${r.total}; CPU per request: server ${r.appCpuMs.toFixed(2)} ms, PostgreSQL ${r.dbCpuMs.toFixed(2)} ms`,
        );
      }
    }
    if (wanted('opening')) await timeOpenings(plivo, order);
    if (wanted('outbox')) await timeDrain(plivo, order);
  } finally {
    for (const size of sizes) await stopProcess(size.server);
  }
}

/** Openings, one at a time: half the openers of each side in rounds A B, then the other half B A. */
async function timeOpenings(plivo, order) {
  const name = `opening a slot (${FITTING} texts to Plivo)`;
  for (const size of sizes) {
    const waited = await outboxIdle(size.url);
    log(`${size.label}: the outbox sent the replies' answers in ${waited.toFixed(1)} s`);
    size.openerHalves = [
      size.context.openers.filter((_, i) => i % 2 === 0),
      size.context.openers.filter((_, i) => i % 2 === 1),
    ];
    size.openingRounds = [];
  }
  for (const [i, size] of order.entries()) {
    const openers = size.openerHalves[i < sizes.length ? 0 : 1];
    size.openingRounds.push(
      await openings(size.publicUrl, plivo.control, { ...size.context, openers }, FITTING),
    );
  }
  for (const size of sizes) {
    const latencies = size.openingRounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const at = (p) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
    const spent = size.openingRounds.reduce((sum, r) => sum + r.seconds, 0);
    const r = {
      p50: at(50),
      p99: at(99),
      rps: latencies.length / spent,
      total: latencies.length,
      bad: size.openingRounds.reduce((sum, x) => sum + x.bad, 0),
    };
    size.results[name] = r;
    log(
      `${size.label} openings: p50 ${r.p50.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, ${r.bad} failed of ${r.total + r.bad}`,
    );
  }
}

/** The outbox drain in rounds A B B A of half the texts each; texts per second over all rounds. */
async function timeDrain(plivo, order) {
  const name = `outbox drain (${DRAIN.toLocaleString('en-US')} texts)`;
  const rounds = new Map(sizes.map((size) => [size, []]));
  for (const size of order) {
    await outboxIdle(size.url);
    rounds.get(size).push(await drain(size.url, plivo.control, DRAIN / 2, senders(size)));
  }
  for (const size of sizes) {
    const list = rounds.get(size);
    const handed = list.reduce((sum, r) => sum + r.handed, 0);
    const spent = list.reduce((sum, r) => sum + r.handed / r.textsPerSecond, 0);
    const r = { textsPerSecond: handed / spent, handed, bad: list.reduce((sum, x) => sum + x.bad, 0) };
    size.results[name] = r;
    log(`${size.label} outbox drain: ${r.textsPerSecond.toFixed(0)} texts/s, ${r.bad} not handed over`);
  }
}

/** The statements each path runs (one request each, captured from the server) and their plans. */
async function explainSize(size, plivo, opener) {
  const { context } = size;
  const file = join(tmpdir(), `bench-scale-capture-${size.key}.jsonl`);
  rmSync(file, { force: true });
  const server = await startServer(size, plivo, {
    nodeArgs: ['--import', join(root, 'scripts/bench/scale/capture.mjs')],
    env: { SCALE_CAPTURE_FILE: file },
  });
  const captured = {};
  const norm = (text) => text.replace(/\s+/g, ' ').trim();
  let background = new Set();
  // What the idle server runs on its own (the workers' polls: outbox, openings, weekly summary), recorded
  // from its start for longer than the openings worker's 15-s period, is listed apart and left out of the
  // paths' statements.
  const backgroundOf = async () => {
    await sleep(smoke ? 2000 : 16_000);
    const statements = capturedSince(file, 0);
    captured[BACKGROUND] = statements;
    background = new Set(statements.map((s) => norm(s.text)));
  };
  const ownOnly = (statements) => statements.filter((s) => !background.has(norm(s.text)));
  try {
    await backgroundOf();
    const once = async (request) => {
      const response = await fetch(`${size.publicUrl}${request.path}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
      });
      await response.arrayBuffer();
      await sleep(150); // what the request queued runs right after its answer (the outbox's kick)
    };
    for (const [name, makeRequest] of loadPaths(context, plivo, size.publicUrl)) {
      if (!wanted(name)) continue;
      if (name === 'inbound YES') await ownerOpensSlot(size);
      await once(makeRequest(1));
      const offset = captureOffset(file);
      await once(makeRequest(2));
      captured[name] = ownOnly(capturedSince(file, offset));
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
      captured[`opening a slot (${FITTING} texts to Plivo)`] = ownOnly(capturedSince(file, offset));
    }
    if (wanted('outbox')) {
      const offset = captureOffset(file);
      await queueTexts(size.url, 20, senders(size));
      await sleep(2500);
      captured[`outbox drain (${DRAIN.toLocaleString('en-US')} texts)`] = capturedSince(file, offset);
    }
  } finally {
    await stopProcess(server);
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
const plivo = await startPlivo(PORT + 30);
try {
  for (const size of sizes) {
    log(`${size.label}: preparing the measured owner, the admin and ${FITTING}-customer openers`);
    size.context = await prepare(size.url);
    // Plans first, on the data as seeded (the load adds replies to the owner's conversations); one opener
    // is kept for them.
    size.plans = await explainSize(size, plivo, size.context.openers.pop());
  }
  await measureAll(plivo);
} finally {
  await stopProcess(plivo.child);
}
const measured = Object.fromEntries(sizes.map((size) => [size.key, size]));

// ---- report ----
const names = Object.keys(measured.full.results);
const small = measured.small ?? measured.full;
const labels = { small: sizes[0].label, full: sizes.at(-1).label };
const table = resultTable(names, small.results, measured.full.results, labels);
console.log(`\n${table}\n`);
const planNames = [...names, BACKGROUND];
const planSummary = plansSection(planNames, { small: small.plans, full: measured.full.plans }, labels);
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
  const biggest = s.tables.map((t) => `${t.name} ${(Number(t.bytes) / 2 ** 20).toFixed(0)} MiB`).join(', ');
  return `- ${size.label} (\`${size.db}\`): ${c.businesses.toLocaleString('en-US')} businesses, ${c.customers.toLocaleString('en-US')} customers, ${c.openings.toLocaleString('en-US')} openings, ${c.offers.toLocaleString('en-US')} offers, ${c.texts.toLocaleString('en-US')} texts, ${c.replies.toLocaleString('en-US')} replies, ${(Number(c.bytes) / 2 ** 30).toFixed(2)} GiB (with indexes: ${biggest}); seeded in ${s.total.toFixed(0)} s (${steps})`;
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
    "CPU per request while each path was loaded (the server process and the database's PostgreSQL backends, from /proc):",
    '',
    cpuTable(names, small.results, measured.full.results, labels),
    '',
    missed.length ? `Missed: ${missed.join('; ')}.` : 'Every path met its targets.',
  ].join('\n'),
);
writeSection(docs, 'plans', planSummary);
// The repository's formatter aligns Markdown tables; the file is left as `npm run check` wants it.
spawnSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', docs], { cwd: root, stdio: 'ignore' });
log(`docs/SCALE.md written (${missed.length} of ${names.length} paths missed a target)`);
