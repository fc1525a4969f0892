/**
 * `npm run admin -- grant <email>` / `revoke <email>`: makes an existing user an admin, or takes it back.
 * Uses the server's own configuration (DATABASE_URL, or PGlite in DATA_DIR) and migrates like a start would.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../config.ts';
import { type Database, describeDataDir, IN_MEMORY, openDatabase } from '../db/client.ts';
import { findUserByEmail, updateUser } from '../features/auth/auth.repo.ts';
import { type Clock, systemClock } from '../lib/clock.ts';

export const ADMIN_USAGE = 'Usage: npm run admin -- grant <email> | revoke <email>';

export interface AdminCommandResult {
  /** 0 done (or nothing to do), 1 no such user, 2 bad arguments. */
  exitCode: 0 | 1 | 2;
  message: string;
}

type AdminCommand = { action: 'grant' | 'revoke'; email: string } | { error: string };

export function parseAdminArgs(args: string[]): AdminCommand {
  const [action, rawEmail, ...extra] = args;
  if ((action !== 'grant' && action !== 'revoke') || rawEmail === undefined || extra.length > 0) {
    return { error: ADMIN_USAGE };
  }
  const email = rawEmail.trim().toLowerCase();
  if (!z.email().safeParse(email).success)
    return { error: `Not an email address: ${rawEmail}\n${ADMIN_USAGE}` };
  return { action, email };
}

export async function runAdminCommand(
  args: string[],
  deps: { db: Database; clock?: Clock; adminEmails?: string[] },
): Promise<AdminCommandResult> {
  const command = parseAdminArgs(args);
  if ('error' in command) return { exitCode: 2, message: command.error };
  const { action, email } = command;
  const user = await findUserByEmail(deps.db, email);
  if (!user) return { exitCode: 1, message: `No user with email ${email}` };

  const admin = action === 'grant';
  if (user.admin === admin) {
    return { exitCode: 0, message: admin ? `${email} is already an admin` : `${email} is not an admin` };
  }
  await updateUser(deps.db, user.id, { admin }, (deps.clock ?? systemClock).now());
  if (admin) return { exitCode: 0, message: `Granted admin to ${email}` };
  const stillListed = deps.adminEmails?.includes(email)
    ? ` (ADMIN_EMAILS still lists ${email}, so the next server start grants it again)`
    : '';
  return { exitCode: 0, message: `Revoked admin from ${email}${stillListed}` };
}

/** Why the CLI must not open PGlite's folder, if it must not: it is missing, or another process has it open. */
export function dataDirProblem(dataDir: string): string | undefined {
  if (dataDir === IN_MEMORY) return undefined;
  // Opening a folder that is not there would create an empty database (a mistyped DATA_DIR, say).
  if (!existsSync(dataDir)) {
    return `No database in ${resolve(dataDir)}: start the server once, or set DATA_DIR or DATABASE_URL.`;
  }
  // PGlite is one process's database: writing its folder while the server has it open can corrupt it.
  // PGlite keeps a postmaster.pid in the folder while it is open.
  const pidFile = join(dataDir, 'postmaster.pid');
  if (existsSync(pidFile)) {
    return (
      `DATA_DIR ${resolve(dataDir)} is open in another process (is the server running?). ` +
      `Stop it and try again; if nothing is running, delete ${resolve(pidFile)}.`
    );
  }
  return undefined;
}

async function main(args: string[]): Promise<number> {
  const command = parseAdminArgs(args);
  if ('error' in command) {
    console.error(command.error);
    return 2;
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    return 1;
  }
  // npm runs this script inside apps/server; a relative DATA_DIR means the same folder as for `npm start`,
  // which is relative to where npm was invoked (INIT_CWD).
  let target = config.database;
  if ('dataDir' in target && target.dataDir !== IN_MEMORY && !isAbsolute(target.dataDir)) {
    target = { dataDir: resolve(process.env.INIT_CWD ?? process.cwd(), target.dataDir) };
  }
  const where =
    'url' in target ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${describeDataDir(target.dataDir)}`;
  const problem = 'dataDir' in target ? dataDirProblem(target.dataDir) : undefined;
  if (problem) {
    console.error(problem);
    return 1;
  }
  const database = openDatabase(target);
  try {
    await database.migrate();
    const result = await runAdminCommand(args, { db: database.db, adminEmails: config.adminEmails });
    if (result.exitCode === 0) console.log(result.message);
    else console.error(`${result.message} (database: ${where})`);
    return result.exitCode;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
