import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { offers, openings } from '../../db/schema.ts';

/** The queries of a released claim (release.ts; issue 26): the opening locked, open again, its offers queued. */

/** The owner's opening, its row locked for a change decided from it. */
export async function lockOpening(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(openings)
    .where(and(eq(openings.userId, userId), eq(openings.id, id)))
    .for('update');
  return row;
}

/** A filled opening open again (its winner backed out): no winner, the owner told again if nobody claims. */
export async function reopen(executor: Executor, id: string, unclaimedNoticeAt: Date) {
  const [row] = await executor
    .update(openings)
    .set({ status: 'open', winnerCustomerId: null, filledAt: null, unclaimedNoticeAt })
    .where(eq(openings.id, id))
    .returning();
  return row!;
}

/**
 * After a release: the customers not asked yet, then everyone asked before (told it was filled, or no answer),
 * except the one who backed out, wait again after the waves sent so far, each group in the plan's order, `size` to a wave (null:
 * all in one), their "told" mark cleared so a new claim tells them again.
 */
export async function requeueForRelease(executor: Executor, openingId: string, size: number | null) {
  await executor.execute(sql`
    update ${offers} as o
       set status = 'pending', told_at = null, send_at = null, skip_reason = null,
           wave = m.last + 1 + ((r.n - 1) / ${size ?? 1_000_000})
      from (select customer_id, row_number() over (order by sent_at is not null, rank, customer_id) as n
              from ${offers} where opening_id = ${openingId} and status in ('lost', 'skipped')) as r,
           (select coalesce(max(wave), 0) as last from ${offers} where opening_id = ${openingId}) as m
     where o.opening_id = ${openingId} and o.customer_id = r.customer_id`);
}
