import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, offers, openings } from '../../db/schema.ts';
import { ordinal } from './offer-ranking.ts';

/** The queries of a released claim (release.ts; issues 26, 39): the opening locked, open again, its offers queued. */

/** The owner's opening, its row locked for a change decided from it. */
export async function lockOpening(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(openings)
    .where(and(eq(openings.userId, userId), eq(openings.id, id)))
    .for('update');
  return row;
}

/** The winner a release texts: their phone and language, and whether they opted out (STOP). */
export async function winnerOf(executor: Executor, customerId: string) {
  const [row] = await executor
    .select({
      id: customers.id,
      name: customers.name,
      phone: customers.phone,
      language: customers.language,
      optedOut: customers.optedOut,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  return row;
}
export type WinnerRow = NonNullable<Awaited<ReturnType<typeof winnerOf>>>;

/** A filled opening open again (its winner backed out): no winner, the owner told again if nobody claims. */
export async function reopen(executor: Executor, id: string, unclaimedNoticeAt: Date) {
  const [row] = await executor
    .update(openings)
    .set({
      status: 'open',
      winnerCustomerId: null,
      filledAt: null,
      bookedPriceCents: null,
      unclaimedNoticeAt,
    })
    .where(eq(openings.id, id))
    .returning();
  return row!;
}

/** Why a re-asked customer is where they are now, in the offer order's words (issue 39). */
const REQUEUED_REASONS = {
  told: 'told it was filled, asked again first',
  silent: 'texted before, no answer',
} as const;
const PLACE = /^\d+(st|nd|rd|th):\s*/;

/**
 * After a release (issue 39): everyone of the opening not backed out waits again, in new waves numbered on
 * from the last wave that reached anyone (1, 2, 3…), `size` to a wave (null: all in one): first those told it
 * was filled (or who said YES too late: they wanted it), then those not asked yet, then those texted who never
 * answered, each group in the plan's order. Their "told" mark is cleared so a new claim tells them again; their
 * place and reason say why they are asked when they are; the ones who backed out go last.
 */
export async function requeueForRelease(executor: Executor, openingId: string, size: number | null) {
  const rows = await executor
    .select({
      customerId: offers.customerId,
      status: offers.status,
      wave: offers.wave,
      rank: offers.rank,
      reason: offers.reason,
      sentAt: offers.sentAt,
      toldAt: offers.toldAt,
      claimedAt: offers.claimedAt,
    })
    .from(offers)
    .where(eq(offers.openingId, openingId));
  const requeued = rows.filter((row) => row.status === 'lost' || row.status === 'skipped');
  const kept = rows.filter((row) => !requeued.includes(row));
  if (requeued.length === 0) return;
  const last = Math.max(0, ...kept.map((row) => row.wave));
  const group = (row: (typeof rows)[number]) => (row.toldAt || row.claimedAt ? 0 : row.sentAt ? 2 : 1);
  requeued.sort(
    (a, b) =>
      group(a) - group(b) || a.wave - b.wave || a.rank - b.rank || a.customerId.localeCompare(b.customerId),
  );
  const values = requeued.map((row, index) => {
    const place = `${ordinal(index + 1)}: `;
    const why = group(row) === 0 ? REQUEUED_REASONS.told : group(row) === 2 ? REQUEUED_REASONS.silent : null;
    const reason = place + (why ?? row.reason.replace(PLACE, ''));
    const wave = last + 1 + Math.floor(index / (size ?? 1_000_000));
    return sql`(${row.customerId}::uuid, ${wave}::int, ${index + 1}::int, ${reason}::text)`;
  });
  await executor.execute(sql`
    update ${offers} as o
       set status = 'pending', told_at = null, send_at = null, skip_reason = null,
           wave = v.wave, rank = v.rank, reason = v.reason
      from (values ${sql.join(values, sql`, `)}) as v(customer_id, wave, rank, reason)
     where o.opening_id = ${openingId} and o.customer_id = v.customer_id`);
  // The ones who backed out after those asked again, so the page's order is the plan's.
  for (const [index, row] of kept.sort((a, b) => a.rank - b.rank).entries()) {
    const rank = requeued.length + index + 1;
    const why = row.status === 'released' ? 'released by you' : 'backed out';
    await executor
      .update(offers)
      .set({ rank, reason: `${ordinal(rank)}: ${why}, not asked again` })
      .where(and(eq(offers.openingId, openingId), eq(offers.customerId, row.customerId)));
  }
}
