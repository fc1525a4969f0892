import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';
import { notRunSql } from '../../jobs/index.ts';

/**
 * The accounts (table `users`): find, create, link, change and delete them, and the owner's own settings.
 * The auth feature is the one home of `users` and its satellite tables; each concern has its repo file, all
 * re-exported here so `import * as repo from './auth.repo.ts'` (and wiring.ts) keep one entry point.
 */
export * from './admin-users.repo.ts';
export * from './billing-users.repo.ts';
export * from './business-numbers.repo.ts';
export * from './password-resets.repo.ts';
export * from './sessions.repo.ts';
export * from './verification-codes.repo.ts';

export type { UserRow };
export type NewUser = typeof users.$inferInsert;
export type ProfileChanges = Partial<
  Pick<
    UserRow,
    | 'firstName'
    | 'lastName'
    | 'email'
    | 'businessName'
    | 'businessPhone'
    | 'businessAddress'
    | 'city'
    | 'state'
    | 'zip'
  >
>;

export async function findUserByEmail(executor: Executor, email: string) {
  const [user] = await executor.select().from(users).where(eq(users.email, email)).limit(1);
  return user;
}

/** Locks the owner's row: caps and alerts per day are checked and written under it, so two requests never both pass. */
export async function lockUser(executor: Executor, userId: string) {
  const [row] = await executor.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function setTimeZone(executor: Executor, userId: string, timeZone: string, now: Date) {
  await executor.update(users).set({ timeZone, updatedAt: now }).where(eq(users.id, userId));
}

/** The business's "plain letters" setting for Spanish texts (issue 28). */
export async function setPlainSpanishLetters(executor: Executor, userId: string, plain: boolean, now: Date) {
  await executor
    .update(users)
    .set({ plainSpanishLetters: plain, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function findUserById(executor: Executor, id: string) {
  const [user] = await executor.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/** Inserts a user; returns undefined when the email is taken (the unique index decides, race-free). */
export async function insertUser(executor: Executor, values: NewUser) {
  const [user] = await executor
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return user;
}

/** The account signed in through `provider` as `providerId` (unique together). */
export async function findUserByProvider(executor: Executor, provider: string, providerId: string) {
  const [user] = await executor
    .select()
    .from(users)
    .where(and(eq(users.provider, provider), eq(users.providerId, providerId)))
    .limit(1);
  return user;
}

/** Reads the user with this email, locked until the transaction ends, so two sign-ins cannot both link it. */
export async function findUserByEmailForUpdate(executor: Executor, email: string) {
  const [user] = await executor.select().from(users).where(eq(users.email, email)).for('update').limit(1);
  return user;
}

/**
 * Inserts an account made by a social sign-in; returns undefined when the email or the provider identity is
 * already taken, by any unique index (a concurrent identical sign-in, a registration of the same email).
 */
export async function insertExternalUser(executor: Executor, values: NewUser) {
  const [user] = await executor.insert(users).values(values).onConflictDoNothing().returning();
  return user;
}

/** Links an account that has no provider yet; undefined when it has one by now. */
export async function linkProvider(
  executor: Executor,
  id: string,
  provider: string,
  providerId: string,
  now: Date,
) {
  const [user] = await executor
    .update(users)
    .set({ provider, providerId, updatedAt: now })
    .where(and(eq(users.id, id), isNull(users.provider)))
    .returning();
  return user;
}

export async function updateUser(
  executor: Executor,
  id: string,
  changes: ProfileChanges &
    Partial<
      Pick<UserRow, 'verified' | 'passwordHash' | 'businessVerificationStatus' | 'admin' | 'pendingEmail'>
    >,
  now: Date,
) {
  const [user] = await executor
    .update(users)
    .set({ ...changes, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return user;
}

export function deleteUser(executor: Executor, id: string) {
  return executor.delete(users).where(eq(users.id, id));
}

export async function grantAdmin(executor: Executor, emails: string[]) {
  if (emails.length === 0) return [];
  return (
    executor
      .update(users)
      .set({ admin: true })
      // Only a verified address is proof of owning it (issue 12).
      .where(and(inArray(users.email, emails), eq(users.admin, false), eq(users.verified, true)))
      .returning({ email: users.email })
  );
}

/** Push on or off and the device's platform (SPEC user fields; features/push calls it, wired in wiring.ts). */
export async function setPushSettings(
  executor: Executor,
  id: string,
  settings: { pushNotificationsEnabled: boolean; devicePlatform?: string | null },
) {
  const [user] = await executor.update(users).set(settings).where(eq(users.id, id)).returning();
  return user;
}

/** The owner's weekly summary email switch (issue 14). */
export async function setWeeklySummary(executor: Executor, id: string, enabled: boolean) {
  const [user] = await executor
    .update(users)
    .set({ weeklySummaryEnabled: enabled })
    .where(eq(users.id, id))
    .returning();
  return user;
}

/**
 * Who a weekly summary may go to: verified, past onboarding (a business name given), the switch on. Written
 * as users_weekly_summary_idx's predicate is, so the planner proves the partial index serves the statements.
 */
const weeklySummaryEligible = sql`verified and weekly_summary_enabled and business_name <> ''`;

/**
 * The time zones of the owners a weekly summary may go to, each once, by a loose index scan of
 * users_weekly_summary_idx (one probe per zone, not a read of every owner): the summary's pass works out
 * which of them are at Monday morning now.
 */
export async function weeklySummaryZones(executor: Executor): Promise<string[]> {
  const result = await executor.execute(sql`
    with recursive zones(time_zone) as (
      (select time_zone from ${users} where ${weeklySummaryEligible} order by time_zone limit 1)
      union all
      select (
        select u.time_zone from ${users} u
        where ${weeklySummaryEligible} and u.time_zone > zones.time_zone
        order by u.time_zone limit 1
      )
      from zones where zones.time_zone is not null
    )
    select time_zone from zones where time_zone is not null`);
  return (result as unknown as { rows: { time_zone: string }[] }).rows.map((row) => row.time_zone);
}

/** Which owners a pass of the weekly summary asks for (features/dashboard/weekly-summary.ts). */
export interface DueWeeklySummaryQuery {
  /** The zones at Monday morning now, each with the start of that Monday: accounts created since get none. */
  zones: { timeZone: string; createdBefore: Date }[];
  /**
   * Leaves out the owners whose summary already ran: a run of `job` with the due key '<their id><suffix>',
   * by an anti-join on scheduled_runs' key (jobs/notRunSql).
   */
  notRun: { job: string; dueKeySuffix: string };
  /** Ids in [idFrom, idBefore), after `after` (a keyset cursor), in id order. */
  idFrom?: string;
  idBefore?: string;
  after?: string;
  limit: number;
}

/** The owners due a weekly summary now (users_weekly_summary_idx per zone), a batch of at most `limit`. */
export async function dueWeeklySummaryOwners(executor: Executor, query: DueWeeklySummaryQuery) {
  if (query.zones.length === 0) return [];
  const zones = sql.join(
    query.zones.map((zone) => sql`(${zone.timeZone}, ${zone.createdBefore.toISOString()}::timestamptz)`),
    sql`, `,
  );
  const bounds = [
    query.idFrom ? sql` and u.id >= ${query.idFrom}::uuid` : sql``,
    query.idBefore ? sql` and u.id < ${query.idBefore}::uuid` : sql``,
    query.after ? sql` and u.id > ${query.after}::uuid` : sql``,
  ];
  const result = await executor.execute(sql`
    select u.id, u.email, u.first_name, u.business_name, u.time_zone, u.created_at
    from (values ${zones}) as due(time_zone, created_before)
    join ${users} u on u.time_zone = due.time_zone and u.created_at < due.created_before
    where ${weeklySummaryEligible}${sql.join(bounds)}
      and ${notRunSql(query.notRun.job, sql`u.id::text || ${query.notRun.dueKeySuffix}`)}
    order by u.id
    limit ${query.limit}`);
  const rows = (
    result as unknown as {
      rows: {
        id: string;
        email: string;
        first_name: string;
        business_name: string;
        time_zone: string;
        created_at: Date | string;
      }[];
    }
  ).rows;
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    businessName: row.business_name,
    timeZone: row.time_zone,
    createdAt: new Date(row.created_at),
  }));
}

/** The owner behind a public join link (issue 15). */
export async function findOwnerByJoinSlug(executor: Executor, slug: string) {
  const [user] = await executor.select().from(users).where(eq(users.joinSlug, slug));
  return user;
}

/** Gives the owner a join link slug if they have none (a unique one: the caller retries on a clash). */
export async function setJoinSlugIfMissing(executor: Executor, id: string, slug: string) {
  await executor
    .update(users)
    .set({ joinSlug: slug })
    .where(and(eq(users.id, id), isNull(users.joinSlug)));
  const [user] = await executor.select({ joinSlug: users.joinSlug }).from(users).where(eq(users.id, id));
  return user?.joinSlug ?? null;
}
