import { and, desc, eq, gte, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { offers, openings } from '../../db/schema.ts';
import { wallClock } from '../../lib/time-zone.ts';
import {
  type BusinessHistory,
  type CustomerHistory,
  emptyBusinessHistory,
  hourBucket,
  leadBucket,
} from './offer-ranking.ts';

/**
 * What the offer policy learns from (issue 26), read from `offers` and `openings` (this feature's tables): a
 * business's recent offers and claims by lead time and hour, each candidate's own, and the texts that count
 * toward the daily cap.
 */

/** How far back the policy looks, and at most how many offers of one business it reads. */
const HISTORY_DAYS = 180;
const BUSINESS_SAMPLE = 5000;
const DAY_MS = 86_400_000;

/**
 * An offer the customer said YES to and kept: won, or answered too late (they wanted it). A winner who backed
 * out (by text: declined; released by the owner) did not claim it (issue 39).
 */
const claimed = sql<boolean>`${offers.claimedAt} is not null and ${offers.status} not in ('declined', 'released')`;

/** The business's claim rate overall, by lead time and by the hour (its time zone) the alert went out. */
export async function businessHistory(
  executor: Executor,
  userId: string,
  timeZone: string,
  now: Date,
): Promise<BusinessHistory> {
  const rows = await executor
    .select({ sentAt: offers.sentAt, startsAt: openings.startsAt, claimed })
    .from(offers)
    .innerJoin(openings, eq(openings.id, offers.openingId))
    .where(
      and(
        eq(openings.userId, userId),
        isNotNull(offers.sentAt),
        gte(openings.createdAt, new Date(now.getTime() - HISTORY_DAYS * DAY_MS)),
      ),
    )
    .orderBy(desc(openings.createdAt))
    .limit(BUSINESS_SAMPLE);
  const history = emptyBusinessHistory();
  for (const row of rows) {
    const sentAt = row.sentAt!;
    const claim = row.claimed ? 1 : 0;
    const lead = history.byLead[leadBucket((row.startsAt.getTime() - sentAt.getTime()) / 60_000)];
    const hour = history.byHour[hourBucket(wallClock(sentAt, timeZone).hour)];
    for (const stats of [history, lead, hour]) {
      stats.offers += 1;
      stats.claims += claim;
    }
  }
  return history;
}

const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * Each customer's offers, claims (a back-out is none), back-outs, median minutes to claim and last offer
 * (customers without any: absent).
 */
export async function customerHistories(
  executor: Executor,
  customerIds: string[],
  now: Date,
): Promise<Map<string, CustomerHistory>> {
  const histories = new Map<string, CustomerHistory>();
  if (customerIds.length === 0) return histories;
  const rows = await executor
    .select({
      customerId: offers.customerId,
      sentAt: offers.sentAt,
      claimedAt: offers.claimedAt,
      status: offers.status,
    })
    .from(offers)
    .innerJoin(openings, eq(openings.id, offers.openingId))
    .where(
      and(
        inArray(offers.customerId, customerIds),
        isNotNull(offers.sentAt),
        gte(offers.sentAt, new Date(now.getTime() - HISTORY_DAYS * DAY_MS)),
      ),
    );
  const replies = new Map<string, number[]>();
  for (const row of rows) {
    const sentAt = row.sentAt!;
    const history = histories.get(row.customerId) ?? {
      offers: 0,
      claims: 0,
      replyMinutes: null,
      lastOfferedAt: null,
      backedOut: 0,
      released: 0,
    };
    history.offers += 1;
    if (row.status === 'declined') history.backedOut = (history.backedOut ?? 0) + 1;
    else if (row.status === 'released') history.released = (history.released ?? 0) + 1;
    else if (row.claimedAt) {
      history.claims += 1;
      const list = replies.get(row.customerId) ?? [];
      list.push((row.claimedAt.getTime() - sentAt.getTime()) / 60_000);
      replies.set(row.customerId, list);
    }
    if (!history.lastOfferedAt || sentAt > history.lastOfferedAt) history.lastOfferedAt = sentAt;
    histories.set(row.customerId, history);
  }
  for (const [id, list] of replies) histories.get(id)!.replyMinutes = median(list);
  return histories;
}

/**
 * The texts of the last two days that count toward each customer's daily cap: alerts sent and "it's been
 * filled" texts (the policy counts them per the customer's local day).
 */
export async function recentContacts(
  executor: Executor,
  customerIds: string[],
  now: Date,
): Promise<Map<string, Date[]>> {
  const contacts = new Map<string, Date[]>();
  if (customerIds.length === 0) return contacts;
  const since = new Date(now.getTime() - 2 * DAY_MS);
  const rows = await executor
    .select({ customerId: offers.customerId, sentAt: offers.sentAt, toldAt: offers.toldAt })
    .from(offers)
    .where(
      and(inArray(offers.customerId, customerIds), or(gte(offers.sentAt, since), gte(offers.toldAt, since))),
    );
  for (const row of rows) {
    const list = contacts.get(row.customerId) ?? [];
    for (const at of [row.sentAt, row.toldAt]) if (at && at >= since) list.push(at);
    contacts.set(row.customerId, list);
  }
  return contacts;
}
