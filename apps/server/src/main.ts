import { buildApp } from './app.ts';
import { ConfigError, loadConfig, publicHostProblem } from './config.ts';
import { describeDataDir, openDatabase } from './db/client.ts';
import { webDistFolder } from './paths.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env, {
    webDistDir: process.env.SERVE_WEB === 'false' ? undefined : webDistFolder,
  });
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
// Building the app queries nothing, so it runs while the database starts and migrates (issue 16: start-up).
const [app] = await Promise.all([buildApp({ config, database }), database.migrate()]);
const admins = await app.services.auth.grantAdmins(config.adminEmails);
for (const { email } of admins) app.log.info(`granted admin to ${email} (ADMIN_EMAILS)`);
app.outbox.start();
app.billingWorker.start();
app.openingsWorker.start();

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  app.log.info(`${signal} received: finishing in-flight requests`);
  const force = setTimeout(() => {
    app.log.error('shutdown took longer than 10 s; exiting');
    process.exit(1);
  }, 10_000);
  force.unref();
  try {
    await app.close();
    await database.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
const where =
  'url' in config.database
    ? 'PostgreSQL (DATABASE_URL)'
    : `PGlite in ${describeDataDir(config.database.dataDir)}`;
app.log.info(`Waitlist & Text is running at ${config.publicUrl} · database: ${where}`);
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
