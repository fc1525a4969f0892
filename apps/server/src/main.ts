// Start-up phases, in ms since the process started (logged once listening; issue 16).
const modulesLoadedMs = performance.now();

import { ConfigError, loadConfig, publicHostProblem } from './config.ts';
import { describeDataDir, openDatabase } from './db/client.ts';
import { startShutdownWatchdog } from './lib/shutdown-watchdog.ts';
import { webDistFolder } from './paths.ts';

let config: ReturnType<typeof loadConfig>;
try {
  // The environment is handed to config.ts, its only reader.
  const loaded = loadConfig(process.env);
  config = { ...loaded, webDistDir: loaded.serveWeb ? webDistFolder : undefined };
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
const problem = publicHostProblem(config);
if (problem) {
  console.error(problem);
  process.exit(1);
}

const database = openDatabase(config.database);
// The database starts first; the app's modules load and the app is built meanwhile (it queries nothing), so
// PGlite's file reads and WebAssembly compilation overlap them (issue 16: start-up).
const databaseReady = database.migrate().then(() => performance.now());
const { buildApp } = await import('./app.ts');
const appModulesMs = performance.now();
const app = await buildApp({ config, database });
const appBuiltMs = performance.now();
const migratedMs = await databaseReady;
const admins = await app.services.auth.grantAdmins(config.adminEmails);
for (const { email } of admins) app.log.info(`granted admin to ${email} (ADMIN_EMAILS)`);

/**
 * The background workers (outbox, billing, openings, weekly summary) start once the server answers. On PGlite their first
 * passes (cold catalog caches, a few queries each) run on this thread for ~150 ms, and started before the
 * first request they held it back that long; a second later the first answers are out (issue 16: start-up).
 */
const workersStartMs = database.kind === 'pglite' ? 1_000 : 0;
let startWorkers: NodeJS.Timeout | undefined;

/** How long the last log lines may take to write before exiting (a reader that has gone gets none). */
const LAST_LOGS_MS = 500;
/** Exits once the last log lines are written or given up: a closed output pipe never holds the exit. */
async function exit(code: number): Promise<never> {
  await app.settleLogs(LAST_LOGS_MS);
  process.exit(code);
}

let shuttingDown = false;
/**
 * Graceful shutdown within SHUTDOWN_TIMEOUT_SECONDS: readiness turns 503, the listener closes, in-flight
 * requests finish, the workers stop (the outbox finishes the row in hand and hands the rest of its batch
 * back), the database closes. Past the deadline it says what it abandoned and exits 1; a watchdog thread
 * kills the process 2 s later if the main thread is too blocked even for that. A second signal exits at once.
 */
async function shutdown(signal: string) {
  if (shuttingDown) {
    app.log.warn(`${signal} received again: exiting now`);
    await exit(1);
  }
  shuttingDown = true;
  clearTimeout(startWorkers);
  const started = Date.now();
  app.lifecycle.draining = true;
  const deadline = config.shutdownTimeoutMs;
  startShutdownWatchdog(
    deadline + 2_000,
    `shutdown did not end ${deadline + 2_000} ms after ${signal} (main thread blocked): killed`,
  );
  app.log.info(
    { signal, inFlightRequests: app.lifecycle.inFlight, deadlineMs: deadline },
    `${signal} received: finishing in-flight requests and the outbox row in hand`,
  );
  const force = setTimeout(() => {
    const row = app.outbox.inFlight();
    app.log.error(
      {
        abandonedRequests: app.lifecycle.inFlight,
        abandonedOutboxRow: row ?? null,
      },
      `shutdown took longer than ${deadline} ms: abandoning ${app.lifecycle.inFlight} request(s)` +
        (row
          ? ` and outbox ${row.kind} ${row.id} mid-send (its lease runs out and another instance retries it; a text asks the provider first)`
          : ' and no outbox row'),
    );
    void exit(1);
  }, deadline);
  // Keep-alive connections that fall idle after their last answer would hold close() until they time out.
  const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
  sweep.unref();
  try {
    await app.close();
    await database.close();
    clearTimeout(force);
    app.log.info({ ms: Date.now() - started }, 'shutdown complete: nothing abandoned');
    await exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    await exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
startWorkers = setTimeout(() => {
  app.outbox.start();
  app.billingWorker.start();
  app.openingsWorker.start();
  app.calendarWorker.start();
  app.weeklySummaryWorker.start();
}, workersStartMs);
const where =
  'url' in config.database
    ? 'PostgreSQL (DATABASE_URL)'
    : `PGlite in ${describeDataDir(config.database.dataDir)}`;
const ms = (value: number) => Math.round(value);
app.log.info(
  {
    startupMs: {
      // npm start's checks (install, builds) before this process's server code ran, when started by it.
      ...(config.startChecksMs !== undefined ? { checks: config.startChecksMs } : {}),
      modules: ms(modulesLoadedMs),
      appModules: ms(appModulesMs),
      appBuilt: ms(appBuiltMs),
      databaseMigrated: ms(migratedMs),
      listening: ms(performance.now()),
    },
  },
  `Waitlist & Text is running at ${config.publicUrl} · database: ${where} · started in ${ms(performance.now())} ms`,
);
if (config.billing.provider === 'local') {
  app.log.info(
    'Billing is local (no STRIPE_SECRET_KEY): test cards only, e.g. 4242 4242 4242 4242; POST /api/v1/dev/billing/advance {"days":30} moves the billing clock',
  );
}
if (config.email.provider === 'local') {
  app.log.info(
    config.localTools === 'anyone'
      ? `Emails are not sent: read them at ${config.publicUrl}/dev/mailbox (codes and links also appear in this log)`
      : `Emails are not sent: admins read them at ${config.publicUrl}/api/v1/dev/mailbox (LOCAL_TOOLS=admin)`,
  );
}
