import type { Offer, Opening } from '@waitlist/contract';
import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { OfferRow, OpeningRow } from '../../db/rows.ts';
import { customers, messages, offers, openings, services } from '../../db/schema.ts';

/**
 * The one home of the `openings` and `offers` tables (decision 0008). Reads join customers and messages for
 * the lists; customers' statuses are changed by features/waitlist's repo, handed over in composition.ts.
 */
export type { OfferRow, OpeningRow };

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export async function countAlertsOn(executor: Executor, userId: string, day: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(openings)
    .where(and(eq(openings.userId, userId), eq(openings.localDate, day)));
  return row?.count ?? 0;
}

export async function findOpening(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(openings)
    .where(and(eq(openings.userId, userId), eq(openings.id, id)));
  return row;
}

/** Once an opening is no longer open: its sent offers are lost, the unsent (pending or held) ones skipped. */
export async function settleOffers(executor: Executor, openingId: string) {
  await executor
    .update(offers)
    .set({ status: sql`case when ${offers.status} = 'sent' then 'lost' else 'skipped' end` })
    .where(and(eq(offers.openingId, openingId), inArray(offers.status, ['pending', 'held', 'sent'])));
}

/**
 * The customers to tell a filled slot is taken (issue 15): texted for it (status 'sent'), not the winner,
 * not opted out, not told yet. Customers of waves never sent are not texted at all.
 */
export function offersToTell(executor: Executor, openingId: string, winnerId: string) {
  return executor
    .select({
      customerId: offers.customerId,
      name: customers.name,
      phone: customers.phone,
      autoAnsweredAt: customers.autoAnsweredAt,
      timeZone: customers.timeZone,
      language: customers.language,
    })
    .from(offers)
    .innerJoin(customers, eq(customers.id, offers.customerId))
    .where(
      and(
        eq(offers.openingId, openingId),
        eq(offers.status, 'sent'),
        sql`${offers.customerId} <> ${winnerId}`,
        eq(customers.optedOut, false),
        isNull(offers.toldAt),
      ),
    )
    .orderBy(asc(customers.position));
}

/** Records that these customers were told the slot is taken. */
export async function markTold(executor: Executor, openingId: string, customerIds: string[], now: Date) {
  if (customerIds.length === 0) return;
  await executor
    .update(offers)
    .set({ toldAt: now })
    .where(and(eq(offers.openingId, openingId), inArray(offers.customerId, customerIds)));
}

/** Whether the customer was already told this opening is taken (a late YES then gets nothing more). */
export async function wasTold(executor: Executor, openingId: string, customerId: string) {
  const [row] = await executor
    .select({ toldAt: offers.toldAt })
    .from(offers)
    .where(and(eq(offers.openingId, openingId), eq(offers.customerId, customerId)));
  return Boolean(row?.toldAt);
}

export function offersOf(executor: Executor, openingId: string) {
  return executor
    .select({
      customerId: offers.customerId,
      name: customers.name,
      phone: customers.phone,
      wave: offers.wave,
      sentAt: offers.sentAt,
      status: offers.status,
      toldAt: offers.toldAt,
      optedOut: customers.optedOut,
      position: customers.position,
      rank: offers.rank,
      reason: offers.reason,
      sendAt: offers.sendAt,
      skipReason: offers.skipReason,
    })
    .from(offers)
    .innerJoin(customers, eq(customers.id, offers.customerId))
    .where(eq(offers.openingId, openingId))
    .orderBy(asc(offers.wave), asc(offers.rank), asc(customers.position));
}

/** What happened to one customer of an alert, in words the owner reads (issue 15). */
export function offerOutcome(row: {
  status: OfferRow['status'];
  optedOut: boolean;
  toldAt: Date | null;
  skipReason: OfferRow['skipReason'];
}) {
  if (row.status === 'won') return 'claimed' as const;
  if (row.status === 'declined') return 'backed_out' as const;
  if (row.status === 'released') return 'released' as const;
  if (row.optedOut) return 'opted_out' as const;
  if (row.status === 'held') return 'waiting_quiet_hours' as const;
  if (row.status === 'skipped' && row.skipReason === 'quiet_hours') return 'not_texted_quiet_hours' as const;
  if (row.status === 'skipped' && row.skipReason === 'daily_cap') return 'not_texted_daily_cap' as const;
  if (row.toldAt) return 'told_filled' as const;
  if (row.status === 'lost') return 'no_answer' as const;
  if (row.status === 'sent') return 'texted' as const;
  if (row.status === 'pending') return 'next_wave' as const;
  return 'not_texted' as const;
}

/** An offer's row; its `question` comes from the customer's texts (openings.service.ts). */
export function offerDto(row: Awaited<ReturnType<typeof offersOf>>[number]): Omit<Offer, 'question'> {
  return {
    customerId: row.customerId,
    name: row.name,
    phone: row.phone,
    wave: row.wave,
    // One state per row (issue 39): a customer waiting for, held from or left out of this round shows no
    // earlier text's time (asked again after a back-out, their first text is history).
    sentAt: ['pending', 'held', 'skipped'].includes(row.status) ? null : iso(row.sentAt),
    status: row.status,
    outcome: offerOutcome(row),
    toldAt: iso(row.toldAt),
    optedOut: row.optedOut,
    rank: row.rank,
    reason: row.reason,
    sendAt: iso(row.sendAt),
    skipReason: row.skipReason,
  };
}

/** Openings with their stats, newest first. */
export async function listOpenings(executor: Executor, userId: string, only?: string): Promise<Opening[]> {
  const rows = await executor
    .select()
    .from(openings)
    .where(only ? and(eq(openings.userId, userId), eq(openings.id, only)) : eq(openings.userId, userId))
    .orderBy(desc(openings.createdAt), desc(openings.startsAt))
    .limit(200);
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const textStats = await executor
    .select({
      openingId: messages.openingId,
      sent: sql<number>`count(*) filter (where ${messages.status} in ('sent', 'delivered'))::int`,
      delivered: sql<number>`count(*) filter (where ${messages.status} = 'delivered')::int`,
    })
    .from(messages)
    .where(and(inArray(messages.openingId, ids), eq(messages.direction, 'out')))
    .groupBy(messages.openingId);
  const offerStats = await executor
    .select({
      openingId: offers.openingId,
      offered: sql<number>`count(*) filter (where ${offers.sentAt} is not null)::int`,
      wave: sql<number>`coalesce(max(${offers.wave}) filter (where ${offers.sentAt} is not null), 0)::int`,
    })
    .from(offers)
    .where(inArray(offers.openingId, ids))
    .groupBy(offers.openingId);
  const replyStats = await executor
    .select({ openingId: offers.openingId, replies: sql<number>`count(${messages.id})::int` })
    .from(offers)
    .innerJoin(openings, eq(openings.id, offers.openingId))
    .innerJoin(
      messages,
      and(
        eq(messages.customerId, offers.customerId),
        eq(messages.direction, 'in'),
        sql`${messages.createdAt} >= ${offers.sentAt}`,
        sql`(${openings.filledAt} is null or ${messages.createdAt} <= ${openings.filledAt} + interval '1 hour')`,
      ),
    )
    .where(and(inArray(offers.openingId, ids), isNotNull(offers.sentAt)))
    .groupBy(offers.openingId);
  const winnerIds = rows.map((row) => row.winnerCustomerId).filter((id): id is string => id !== null);
  const winners = winnerIds.length
    ? await executor
        .select({ id: customers.id, name: customers.name, phone: customers.phone })
        .from(customers)
        .where(inArray(customers.id, winnerIds))
    : [];
  const byId = <T extends { openingId: string | null }>(list: T[]) =>
    new Map(list.map((item) => [item.openingId, item]));
  const texts = byId(textStats);
  const offered = byId(offerStats);
  const replies = byId(replyStats);
  return rows.map((row) => ({
    id: row.id,
    startsAt: row.startsAt.toISOString(),
    durationMinutes: row.durationMinutes,
    service: row.service,
    priceCents: row.priceCents,
    serviceId: row.serviceId,
    staffId: row.staffId,
    // Named by the service from features/services, which owns staff_members.
    staffName: null,
    status: row.status,
    mode: row.mode,
    waveSize: row.waveSize,
    claimWindowMinutes: row.claimWindowMinutes,
    nextWaveAt: iso(row.nextWaveAt),
    currentWave: offered.get(row.id)?.wave ?? 0,
    winner: winners.find((winner) => winner.id === row.winnerCustomerId) ?? null,
    filledAt: iso(row.filledAt),
    createdAt: row.createdAt.toISOString(),
    localDate: row.localDate,
    stats: {
      sent: texts.get(row.id)?.sent ?? 0,
      delivered: texts.get(row.id)?.delivered ?? 0,
      replies: replies.get(row.id)?.replies ?? 0,
      offered: offered.get(row.id)?.offered ?? 0,
    },
  }));
}

/** Sets the offers of one opening to these customers (one or many) in one statement. */
export async function setOfferStatus(
  executor: Executor,
  openingId: string,
  customerIds: string | string[],
  values: Partial<Pick<OfferRow, 'sentAt' | 'sendAt' | 'skipReason' | 'toldAt' | 'wave' | 'claimedAt'>> & {
    status: OfferRow['status'];
  },
) {
  const ids = [customerIds].flat();
  if (ids.length === 0) return;
  await executor
    .update(offers)
    .set(values)
    .where(and(eq(offers.openingId, openingId), inArray(offers.customerId, ids)));
}

export function setNextWaveAt(executor: Executor, openingId: string, nextWaveAt: Date | null) {
  return executor.update(openings).set({ nextWaveAt }).where(eq(openings.id, openingId));
}

/** Closes or expires the open openings matching `where` (their rows locked by the UPDATE); returns their ids. */
export function finishOpenings(
  executor: Executor,
  where: ReturnType<typeof and>,
  status: 'closed' | 'expired',
) {
  return executor
    .update(openings)
    .set({ status, nextWaveAt: null })
    .where(and(where, eq(openings.status, 'open')))
    .returning({ id: openings.id });
}

export const openingIs = (id: string) => eq(openings.id, id);
export const openingStartedBy = (now: Date) => lte(openings.startsAt, now);

/** The alert a YES answers: an open one first, else the most recent one the customer was texted. */
/**
 * The alert a customer's YES answers (an open one first, else the latest), with when the customer was told
 * it was filled (null if never).
 */
export async function openingAnsweredBy(executor: Executor, userId: string, customerId: string) {
  const [offer] = await executor
    .select({ opening: openings, toldAt: offers.toldAt })
    .from(offers)
    .innerJoin(openings, eq(openings.id, offers.openingId))
    .where(
      and(
        eq(offers.customerId, customerId),
        eq(openings.userId, userId),
        isNotNull(offers.sentAt),
        // A customer who backed out of a slot is not asked again for it, and cannot take it back (issue 26).
        sql`${offers.status} not in ('declined', 'released')`,
      ),
    )
    .orderBy(desc(sql`${openings.status} = 'open'`), desc(offers.sentAt))
    .limit(1);
  return offer;
}

/**
 * What a winner books (issue 39): a customer who waits for another service than the slot's (a Blowout in a
 * "Women's cut" slot) books her own, at its price; otherwise the slot's price. Read in the claim's own UPDATE.
 */
const bookedPriceOf = (customerId: string) =>
  sql<
    number | null
  >`coalesce((select s.price_cents from ${customers} c join ${services} s on s.id = c.service_id
    where c.id = ${customerId} and c.service_id is distinct from ${openings.serviceId}
      and s.price_cents is not null), ${openings.priceCents})`;

/**
 * The claim: one conditional UPDATE. Concurrent YES replies queue on the opening's row lock and re-check
 * `status = 'open'` after the winner commits, so exactly one of them gets a row back.
 */
export async function claimOpening(executor: Executor, openingId: string, customerId: string, now: Date) {
  const [won] = await executor
    .update(openings)
    .set({
      status: 'filled',
      winnerCustomerId: customerId,
      filledAt: now,
      nextWaveAt: null,
      bookedPriceCents: bookedPriceOf(customerId),
    })
    .where(and(eq(openings.id, openingId), eq(openings.status, 'open'), sql`${openings.startsAt} > ${now}`))
    .returning();
  return won;
}

export async function insertOpening(executor: Executor, values: typeof openings.$inferInsert) {
  const [opening] = await executor.insert(openings).values(values).returning();
  return opening!;
}

export async function insertOffers(executor: Executor, values: (typeof offers.$inferInsert)[]) {
  if (values.length > 0) await executor.insert(offers).values(values);
}

/** Open openings whose next wave is due, soonest first. */
export function dueWaves(executor: Executor, now: Date, limit: number) {
  return executor
    .select({ id: openings.id })
    .from(openings)
    .where(and(eq(openings.status, 'open'), lte(openings.nextWaveAt, now)))
    .orderBy(asc(openings.nextWaveAt))
    .limit(limit);
}

/** Locks a still-due open opening, or nothing when another worker holds it (SKIP LOCKED) or it is done. */
export async function lockDueOpening(executor: Executor, id: string, now: Date) {
  const [opening] = await executor
    .select()
    .from(openings)
    .where(and(eq(openings.id, id), eq(openings.status, 'open'), lte(openings.nextWaveAt, now)))
    .for('update', { skipLocked: true });
  return opening;
}

/** Open alerts whose "nobody has claimed" time passed: cleared here (so each is told once) and returned. */
export function takeDueUnclaimedNotices(executor: Executor, now: Date) {
  return executor
    .update(openings)
    .set({ unclaimedNoticeAt: null })
    .where(and(eq(openings.status, 'open'), lte(openings.unclaimedNoticeAt, now)))
    .returning({ userId: openings.userId, startsAt: openings.startsAt });
}

/** The alerts a customer was texted (issue 15: the inbox shows which one a reply answered), oldest first. */
export function offersOfCustomer(executor: Executor, userId: string, customerId: string) {
  return executor
    .select({
      openingId: openings.id,
      service: openings.service,
      startsAt: openings.startsAt,
      status: openings.status,
      sentAt: offers.sentAt,
      won: sql<boolean>`${openings.winnerCustomerId} is not distinct from ${offers.customerId}`,
    })
    .from(offers)
    .innerJoin(openings, eq(openings.id, offers.openingId))
    .where(and(eq(offers.customerId, customerId), eq(openings.userId, userId), isNotNull(offers.sentAt)))
    .orderBy(asc(offers.sentAt));
}

// ---- the earnings dashboard's figures (features/dashboard reads them through wiring.ts) ----

/** The customer said YES to this alert (won or too late), once: what the offer policy learns from (issue 26). */
export async function markClaimed(executor: Executor, openingId: string, customerId: string, now: Date) {
  await executor
    .update(offers)
    .set({ claimedAt: now })
    .where(and(eq(offers.openingId, openingId), eq(offers.customerId, customerId), isNull(offers.claimedAt)));
}
