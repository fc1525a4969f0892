import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { usedNonces } from '../db/schema.ts';

/**
 * Records `nonce` as used in `scope` until `expiresAt`; true the first time, false when it was used already
 * (the primary key decides, so two requests carrying it at once get one true). An entry past its expiry
 * no longer counts: its validity window is over, and the caller refuses the value on its age anyway.
 */
export async function useNonce(
  executor: Executor,
  scope: string,
  nonce: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await executor
    .insert(usedNonces)
    .values({ scope, nonce, expiresAt })
    .onConflictDoUpdate({
      target: [usedNonces.scope, usedNonces.nonce],
      set: { expiresAt },
      setWhere: sql`${usedNonces.expiresAt} <= ${now}`,
    })
    .returning({ nonce: usedNonces.nonce });
  return rows.length === 1;
}

/**
 * `useNonce` as a statement's part (issue 40), for a statement that records the nonce with the work it
 * guards, so a webhook costs one round trip: an `insert … returning nonce` to put in a CTE, which returns a
 * row only the first time (same rule as useNonce). `when` (SQL, optional) is the statement's own condition
 * for recording it: a statement that may decide to do nothing leaves the nonce for the one that will. The
 * caller makes its work depend on the CTE's row, and a failed statement or transaction records nothing.
 */
export const useNonceSql = (values: { scope: SQL; nonce: SQL; expiresAt: SQL; now: SQL; when?: SQL }) => sql`
  insert into ${usedNonces} (scope, nonce, expires_at)
  select ${values.scope}, ${values.nonce}, ${values.expiresAt} where ${values.when ?? sql`true`}
  on conflict (scope, nonce) do update set expires_at = excluded.expires_at
  where ${usedNonces}.expires_at <= ${values.now}
  returning nonce`;

/** Forgets a use recorded by `useNonce`: the work it guarded failed and may be tried again with it. */
export async function releaseNonce(executor: Executor, scope: string, nonce: string) {
  await executor.delete(usedNonces).where(and(eq(usedNonces.scope, scope), eq(usedNonces.nonce, nonce)));
}

/** Deletes the entries whose window ended before `now`. */
export async function sweepNonces(executor: Executor, now: Date) {
  await executor.delete(usedNonces).where(lt(usedNonces.expiresAt, now));
}
