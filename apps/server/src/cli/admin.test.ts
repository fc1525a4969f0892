import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { insertUser } from '../features/auth/auth.repo.ts';
import { createTestDatabase, uniqueEmail } from '../test/test-app.ts';
import { ADMIN_USAGE, dataDirProblem, runAdminCommand } from './admin.ts';

const serverDir = fileURLToPath(new URL('../..', import.meta.url));

/** A user row straight in the database: the CLI only needs one to exist (no password hashing needed). */
async function seedUser(database: DatabaseHandle, email = uniqueEmail('staff')) {
  const user = await insertUser(database.db, { firstName: 'Sam', lastName: 'Staff', email });
  return user!;
}
const isAdmin = async (database: DatabaseHandle, id: string) =>
  (await database.db.select().from(users).where(eq(users.id, id)))[0]!.admin;

describe('runAdminCommand', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('grants and revokes admin by email, in any case, and touches no one else', async () => {
    const staff = await seedUser(database);
    const bystander = await seedUser(database);
    const run = (args: string[]) => runAdminCommand(args, { db: database.db });

    expect(await run(['grant', ` ${staff.email.toUpperCase()} `])).toEqual({
      exitCode: 0,
      message: `Granted admin to ${staff.email}`,
    });
    expect(await isAdmin(database, staff.id)).toBe(true);
    expect(await run(['grant', staff.email])).toEqual({
      exitCode: 0,
      message: `${staff.email} is already an admin`,
    });

    expect(await run(['revoke', staff.email])).toEqual({
      exitCode: 0,
      message: `Revoked admin from ${staff.email}`,
    });
    expect(await isAdmin(database, staff.id)).toBe(false);
    expect(await run(['revoke', staff.email])).toEqual({
      exitCode: 0,
      message: `${staff.email} is not an admin`,
    });
    expect(await isAdmin(database, bystander.id)).toBe(false);
  });

  it('warns that ADMIN_EMAILS will grant a revoked admin again at the next start', async () => {
    const staff = await seedUser(database);
    await runAdminCommand(['grant', staff.email], { db: database.db });
    const result = await runAdminCommand(['revoke', staff.email], {
      db: database.db,
      adminEmails: [staff.email],
    });
    expect(result.exitCode).toBe(0);
    expect(result.message).toMatch(
      new RegExp(`^Revoked admin from ${staff.email} \\(ADMIN_EMAILS still lists`),
    );
    expect(await isAdmin(database, staff.id)).toBe(false);
  });

  it('answers exit code 1 for an email with no account', async () => {
    const ghost = uniqueEmail('ghost');
    expect(await runAdminCommand(['grant', ghost], { db: database.db })).toEqual({
      exitCode: 1,
      message: `No user with email ${ghost}`,
    });
  });

  it.each([
    [[]],
    [['grant']],
    [['promote', 'someone@example.com']],
    [['grant', 'someone@example.com', 'extra']],
    [['--help']],
  ])('answers %j with the usage line and exit code 2', async (args) => {
    expect(await runAdminCommand(args, { db: database.db })).toEqual({ exitCode: 2, message: ADMIN_USAGE });
  });

  it('refuses something that is not an email address with exit code 2', async () => {
    const result = await runAdminCommand(['grant', 'not-an-email'], { db: database.db });
    expect(result.exitCode).toBe(2);
    expect(result.message).toBe(`Not an email address: not-an-email\n${ADMIN_USAGE}`);
  });
});

describe('dataDirProblem', () => {
  it('stops before creating a database where there is none, or opening one another process has open', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wt-admin-dir-'));
    try {
      expect(dataDirProblem(dir)).toBeUndefined();
      expect(dataDirProblem('memory://')).toBeUndefined();
      expect(dataDirProblem(join(dir, 'missing'))).toBe(
        `No database in ${join(dir, 'missing')}: start the server once, or set DATA_DIR or DATABASE_URL.`,
      );
      // PGlite keeps postmaster.pid in its folder while it has it open.
      writeFileSync(join(dir, 'postmaster.pid'), '-42');
      expect(dataDirProblem(dir)).toBe(
        `DATA_DIR ${dir} is open in another process (is the server running?). ` +
          `Stop it and try again; if nothing is running, delete ${join(dir, 'postmaster.pid')}.`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Each test spawns the CLI through tsx (a compile and a PGlite migration per run): `npm test` runs this file beside
// the other lanes on two cores, where one took over 30 s. The time-out catches a hang; each step still asserts.
describe('npm run admin (the process)', { timeout: 120_000 }, () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'wt-admin-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  function runCli(args: string[], env: Record<string, string> = { DATA_DIR: dataDir }) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: '', ADMIN_EMAILS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, stdout, stderr })),
    );
  }

  it('grants admin in the PGlite database of DATA_DIR, and explains bad arguments', async () => {
    const seeded = openDatabase({ dataDir });
    await seeded.migrate();
    const staff = await seedUser(seeded);
    await seeded.close();

    const usage = await runCli(['promote']);
    expect(usage).toEqual({ code: 2, stdout: '', stderr: `${ADMIN_USAGE}\n` });

    // A relative DATA_DIR is read from where npm was invoked (INIT_CWD), as `npm start` reads it.
    const granted = await runCli(['grant', staff.email.toUpperCase()], {
      DATA_DIR: basename(dataDir),
      INIT_CWD: dirname(dataDir),
    });
    expect(granted).toEqual({ code: 0, stdout: `Granted admin to ${staff.email}\n`, stderr: '' });

    const check = openDatabase({ dataDir });
    try {
      expect(await isAdmin(check, staff.id)).toBe(true);
    } finally {
      await check.close();
    }
  });
});
