import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Database, type Executor, preparedName, preparedRows } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';

/** Bearer sessions (table `sessions`) and the prepared lookups every authenticated request makes. */

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
 * the CPU profile of GET /auth/me), and the database keeps them as named prepared statements (unnamed
 * behind a transaction-mode pooler: DATABASE_POOLER).
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
    // Unnamed behind a transaction-mode pooler (issue 40): Drizzle passes the name to node-postgres as is,
    // and no name is an unnamed statement.
    .prepare(preparedName(db, 'auth_session_user') as string);
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
