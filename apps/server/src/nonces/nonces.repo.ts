import { and, eq, lt, sql } from 'drizzle-orm';
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

/** Forgets a use recorded by `useNonce`: the work it guarded failed and may be tried again with it. */
export async function releaseNonce(executor: Executor, scope: string, nonce: string) {
  await executor.delete(usedNonces).where(and(eq(usedNonces.scope, scope), eq(usedNonces.nonce, nonce)));
}

/** Deletes the entries whose window ended before `now`. */
export async function sweepNonces(executor: Executor, now: Date) {
  await executor.delete(usedNonces).where(lt(usedNonces.expiresAt, now));
}
