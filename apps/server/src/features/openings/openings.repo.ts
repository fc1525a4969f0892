import type { Offer, Opening } from '@waitlist/contract';
import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, messages, offers, openings } from '../../db/schema.ts';

export type OpeningRow = typeof openings.$inferSelect;
export type OfferRow = typeof offers.$inferSelect;

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

/** The customers whose offer is not yet sent, or was sent but not claimed: back to waiting when no other open alert offers them a slot. */
export async function releaseOffered(executor: Executor, openingId: string) {
  // SKIP LOCKED: a customer row another transaction holds (its own YES being answered) is left to that
  // transaction (it releases itself) or to the next worker pass, so the claim never waits on it (no deadlock).
  await executor.execute(sql`
    update customers set status = 'waiting', updated_at = now()
    where id in (
      select c.id from customers c
      join offers o on o.customer_id = c.id and o.opening_id = ${openingId}
      where c.status = 'offered'
        and not exists (
          select 1 from offers o2 join openings op on op.id = o2.opening_id
          where o2.customer_id = c.id and op.status = 'open' and o2.sent_at is not null and op.id <> ${openingId}
        )
      for update of c skip locked
    )`);
}

/** Once an opening is no longer open: its sent offers are lost, the unsent ones skipped. */
export async function settleOffers(executor: Executor, openingId: string) {
  await executor
    .update(offers)
    .set({ status: sql`case when ${offers.status} = 'pending' then 'skipped' else 'lost' end` })
    .where(and(eq(offers.openingId, openingId), inArray(offers.status, ['pending', 'sent'])));
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
      optedOut: customers.optedOut,
      position: customers.position,
    })
    .from(offers)
    .innerJoin(customers, eq(customers.id, offers.customerId))
    .where(eq(offers.openingId, openingId))
    .orderBy(asc(offers.wave), asc(customers.position));
}

export function offerDto(row: Awaited<ReturnType<typeof offersOf>>[number]): Offer {
  return {
    customerId: row.customerId,
    name: row.name,
    phone: row.phone,
    wave: row.wave,
    sentAt: iso(row.sentAt),
    status: row.status,
    optedOut: row.optedOut,
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
