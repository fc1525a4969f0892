import type { AdminSortKey } from '@waitlist/contract';
import { and, asc, count, desc, eq, gt, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Database, type Executor, preparedRows } from '../../db/client.ts';
import type { NumberChange, SubscriptionFields, UserRow } from '../../db/rows.ts';
import { emailVerifications, passwordResets, sessions, users } from '../../db/schema.ts';
import type { UserListFilter, UserListQuery } from '../../lib/user-search.ts';

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

// ---- users ----
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

// ---- sessions ----
export function insertSession(executor: Executor, userId: string, tokenHash: string, expiresAt: Date) {
  return executor.insert(sessions).values({ userId, tokenHash, expiresAt });
}

export async function findSessionUser(executor: Executor, tokenHash: string, now: Date) {
  const [row] = await executor
    .select({ user: users, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now)))
    .limit(1);
  return row;
}

const isoUtc = (column: AnyPgColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * GET /auth/me's user as JSON text, built by the database (issue 16): one text field to read instead of 28
 * columns to parse, map and serialise again, on the call every screen makes. It is lib/user.dto.ts's
 * `toUserDto` written in SQL (the same allow-list; timestamps as toISOString writes them); auth.repo.test.ts
 * holds the two equal for users with and without their optional fields.
 */
const userDtoJson = sql<string>`json_build_object(
  'id', ${users.id}, '_id', ${users.id},
  'firstName', ${users.firstName}, 'lastName', ${users.lastName},
  'email', ${users.email}, 'pendingEmail', ${users.pendingEmail},
  'businessName', ${users.businessName}, 'businessPhone', ${users.businessPhone},
  'businessAddress', ${users.businessAddress}, 'city', ${users.city}, 'state', ${users.state}, 'zip', ${users.zip},
  'verified', ${users.verified}, 'admin', ${users.admin},
  'isExternalAuth', ${users.isExternalAuth}, 'provider', ${users.provider}, 'providerId', ${users.providerId},
  'subscriptionPlan', ${users.subscriptionPlan}, 'subscriptionPeriod', ${users.subscriptionPeriod},
  'subscriptionStatus', ${users.subscriptionStatus},
  'trialEndDate', ${isoUtc(users.trialEndDate)}, 'currentPeriodEnd', ${isoUtc(users.currentPeriodEnd)},
  'plivoNumber', ${users.plivoNumber}, 'plivoNumberStatus', ${users.plivoNumberStatus},
  'phoneNumber', ${users.phoneNumber},
  'pushNotificationsEnabled', ${users.pushNotificationsEnabled}, 'devicePlatform', ${users.devicePlatform},
  'weeklySummaryEnabled', ${users.weeklySummaryEnabled},
  'businessVerification', json_build_object(
    'status', ${users.businessVerificationStatus}, 'businessPhone', ${users.businessPhone}),
  'createdAt', ${isoUtc(users.createdAt)}
)::text`;

/** GET /auth/me answers held per instance (about 1 KB each); the oldest goes first beyond this. */
const HELD_ANSWERS = 10_000;

/**
 * The session lookups every authenticated request makes, built once per database (issue 16): Drizzle
 * builds their SQL when they are prepared, not on each call (its query building was the largest cost in
 * the CPU profile of GET /auth/me), and the database keeps them as named prepared statements.
 */
export function prepareSessionQueries(db: Database) {
  const bySession = and(
    eq(sessions.tokenHash, sql.placeholder('tokenHash')),
    gt(sessions.expiresAt, sql.placeholder('now')),
  );
  const sessionUser = db
    .select({ user: users, sessionId: sessions.id })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(bySession)
    .limit(1)
    .prepare('auth_session_user');
  // The user's JSON comes with the version of the row it was built from (PostgreSQL's xmin: the
  // transaction that wrote the row, new on every update) and is rebuilt only when that version differs
  // from the one this instance holds for the session (see sessionUserJson below).
  const rowVersion = sql<string>`${users}.xmin::text`;
  const sessionUserJson = preparedRows(
    db,
    'auth_session_user_json',
    db
      .select({
        version: rowVersion,
        user: sql<
          string | null
        >`case when ${rowVersion} = ${sql.placeholder('version')} then null else ${userDtoJson} end`,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(bySession)
      .limit(1),
  );
  const answers = new Map<string, { version: string; json: string }>();
  return {
    /** The whole user row of a live session, and the session's id. */
    async sessionUser(tokenHash: string, now: Date) {
      const [row] = await sessionUser.execute({ tokenHash, now });
      return row;
    },
    /**
     * Only what GET /auth/me answers with: the API user as JSON text (see userDtoJson). The session is
     * checked by the database on every call, so a session signed out or expired on any instance is refused
     * at once; the JSON, the costly part of the query, is built again only when the user's row changed
     * since this instance last answered for the session (issue 16). Every writer of the row, a migration
     * or a hand-written UPDATE included, changes its xmin, so nothing has to remember to clear this.
     */
    async sessionUserJson(tokenHash: string, now: Date): Promise<string | undefined> {
      const held = answers.get(tokenHash);
      const [row] = await sessionUserJson({
        tokenHash,
        now: now.toISOString(),
        version: held?.version ?? '',
      });
      if (!row) {
        answers.delete(tokenHash);
        return undefined;
      }
      const [version, json] = row as [string, string | null];
      // No JSON: the row is still the version of the answer held (read before the query, so an answer
      // another request replaced meanwhile is still the one to give).
      if (json === null) return held?.json;
      if (answers.size >= HELD_ANSWERS) answers.delete(answers.keys().next().value!);
      answers.set(tokenHash, { version, json });
      return json;
    },
  };
}

export function deleteSession(executor: Executor, sessionId: string) {
  return executor.delete(sessions).where(eq(sessions.id, sessionId));
}

export function deleteSessionsOfUser(executor: Executor, userId: string, exceptSessionId?: string) {
  // and() drops the undefined condition: every session of the user, or all but one.
  return executor
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined));
}

// ---- email verification codes ----
/** The user's one live code, bound to `email`, the address it is sent to (issue 24); replaces any older one. */
export function upsertVerification(
  executor: Executor,
  userId: string,
  email: string,
  codeHash: string,
  expiresAt: Date,
) {
  return executor
    .insert(emailVerifications)
    .values({ userId, email, codeHash, expiresAt, failedAttempts: 0 })
    .onConflictDoUpdate({
      target: emailVerifications.userId,
      set: { email, codeHash, expiresAt, failedAttempts: 0, createdAt: sql`now()` },
    });
}

/** Reads the user's code row, locked, so two guesses at once cannot both spend the same attempt. */
export async function findVerificationForUpdate(executor: Executor, userId: string) {
  const [row] = await executor
    .select()
    .from(emailVerifications)
    .where(eq(emailVerifications.userId, userId))
    .for('update')
    .limit(1);
  return row;
}

export function recordFailedVerification(executor: Executor, userId: string) {
  return executor
    .update(emailVerifications)
    .set({ failedAttempts: sql`${emailVerifications.failedAttempts} + 1` })
    .where(eq(emailVerifications.userId, userId));
}

export function deleteVerification(executor: Executor, userId: string) {
  return executor.delete(emailVerifications).where(eq(emailVerifications.userId, userId));
}

// ---- password reset tokens ----
export function insertPasswordReset(executor: Executor, userId: string, tokenHash: string, expiresAt: Date) {
  return executor.insert(passwordResets).values({ userId, tokenHash, expiresAt });
}

/** Marks a live, unused token used and returns its user id: single use, even under concurrent submits. */
export async function consumePasswordReset(executor: Executor, tokenHash: string, now: Date) {
  const [row] = await executor
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, tokenHash),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ userId: passwordResets.userId });
  return row;
}

export function deleteUnusedResetsOfUser(executor: Executor, userId: string) {
  return executor
    .delete(passwordResets)
    .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
}

/** Push on or off and the device's platform (SPEC user fields; features/push calls it, wired in app.ts). */
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
 * The owners a weekly summary may go to: verified, past onboarding (a business name given), the switch on. A narrow
 * row: the job checks each one's local Monday morning itself.
 */
export async function weeklySummaryOwners(executor: Executor) {
  return executor
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      businessName: users.businessName,
      timeZone: users.timeZone,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(eq(users.verified, true), eq(users.weeklySummaryEnabled, true), ne(users.businessName, '')))
    .orderBy(users.id);
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

// ---- the subscription cache (features/billing reads and sets it through wiring.ts's billingUsers) ----

export async function findUserByBillingCustomerId(executor: Executor, customerId: string) {
  const [user] = await executor.select().from(users).where(eq(users.billingCustomerId, customerId)).limit(1);
  return user;
}

/** Stores the provider's customer id unless one is there already (two first calls at once keep one). */
export async function setBillingCustomerIdIfMissing(executor: Executor, userId: string, customerId: string) {
  const [user] = await executor
    .update(users)
    .set({ billingCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.billingCustomerId)))
    .returning();
  return user;
}

/** Reads the user locked, so a sync and the transition email it may send happen once. */
export async function findUserByBillingCustomerIdForUpdate(executor: Executor, customerId: string) {
  const [user] = await executor
    .select()
    .from(users)
    .where(eq(users.billingCustomerId, customerId))
    .for('update')
    .limit(1);
  return user;
}

export async function updateSubscriptionFields(
  executor: Executor,
  userId: string,
  fields: SubscriptionFields,
  now: Date,
) {
  const [user] = await executor
    .update(users)
    .set({ ...fields, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  return user;
}

/** Marks trials that ended by `now` (and never became a paid plan): subscriptionStatus 'trial_expired'. */
export function expireTrials(executor: Executor, now: Date) {
  return executor
    .update(users)
    .set({ subscriptionStatus: 'trial_expired', updatedAt: now })
    .where(
      and(
        eq(users.subscriptionPlan, 'free_trial'),
        eq(users.subscriptionStatus, 'trialing'),
        lte(users.trialEndDate, now),
      ),
    )
    .returning({ id: users.id, email: users.email, firstName: users.firstName });
}

// ---- the dedicated number (features/messaging reads and sets it through wiring.ts's businessNumbers) ----

/** The business's texting number and its state. */
export async function findSender(executor: Executor, userId: string) {
  const [user] = await executor
    .select({
      id: users.id,
      businessName: users.businessName,
      plivoNumber: users.plivoNumber,
      plivoNumberStatus: users.plivoNumberStatus,
      plivoNumberError: users.plivoNumberError,
    })
    .from(users)
    .where(eq(users.id, userId));
  return user;
}

/**
 * Claims the right to rent a number for the business (issue 24: a burst of requests must rent one number,
 * not one each): true for the one caller that moved the row to "pending, no number yet". Taken when the
 * business has no number (or its last request failed); a claim left behind by a crash is taken again after
 * `staleAfter`.
 */
export async function claimNumberRequest(executor: Executor, userId: string, now: Date, staleAfter: Date) {
  const rows = await executor
    .update(users)
    .set({ plivoNumber: null, plivoNumberStatus: 'pending', plivoNumberError: null, updatedAt: now })
    .where(
      and(
        eq(users.id, userId),
        sql`(${users.plivoNumberStatus} = 'failed' or (${users.plivoNumber} is null and (${users.plivoNumberStatus} is null or ${users.updatedAt} < ${staleAfter})))`,
      ),
    )
    .returning({ id: users.id });
  return rows.length === 1;
}

export function setPhoneNumber(executor: Executor, userId: string, values: NumberChange, now: Date) {
  return executor
    .update(users)
    .set({ ...values, updatedAt: now })
    .where(eq(users.id, userId));
}

// ---- the admin user list (features/admin reads it through wiring.ts's adminUsers) ----

/** Sort expressions; each has an index (schema.ts). Plans sort by tier, not alphabetically. */
const sortExpressions: Record<AdminSortKey, SQL> = {
  firstName: sql`lower(${users.firstName})`,
  email: sql`${users.email}`,
  businessName: sql`lower(${users.businessName})`,
  subscriptionPlan: sql`case ${users.subscriptionPlan} when 'free_trial' then 0 when 'starter' then 1 else 2 end`,
  createdAt: sql`${users.createdAt}`,
};

/** `%` and `_` typed by the admin are literal characters, not wildcards. */
function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

function whereOf(filter: UserListFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.verified !== undefined) conditions.push(eq(users.verified, filter.verified));
  if (filter.plan) conditions.push(eq(users.subscriptionPlan, filter.plan));
  for (const term of filter.search) {
    if ('text' in term) {
      // Served by the trigram index on search_text (already lower-cased).
      conditions.push(sql`${users.searchText} like ${containsPattern(term.text.toLowerCase())}`);
    } else {
      const alternatives = term.digits.map(
        (digits) => sql`${users.phoneDigits} like ${containsPattern(digits)}`,
      );
      conditions.push(sql`(${sql.join(alternatives, sql` or `)})`);
    }
  }
  return conditions.length ? and(...conditions) : undefined;
}

export async function listUsers(executor: Executor, query: UserListQuery): Promise<UserRow[]> {
  const direction = query.order === 'asc' ? asc : desc;
  return (
    executor
      .select()
      .from(users)
      .where(whereOf(query))
      // The id breaks ties, so paging never shows a user twice or skips one.
      .orderBy(direction(sortExpressions[query.sort]), direction(users.id))
      .limit(query.limit)
      .offset(query.offset)
  );
}

export async function countUsers(executor: Executor, filter: UserListFilter): Promise<number> {
  const [row] = await executor.select({ total: count() }).from(users).where(whereOf(filter));
  return row?.total ?? 0;
}
