import { type CalendarConnection, type CalendarProposal, calendarSkipMessages } from '@waitlist/contract';
import { type AnyColumn, and, asc, eq, gt, inArray, isNull, lt, lte, ne, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { calendarConnections, calendarProposals } from '../../db/schema.ts';

/**
 * The one home of `calendar_connections` and `calendar_proposals` (issue 29, decision 0008);
 * `calendar_events` is calendar-events.repo.ts (re-exported below), `calendar_bookings` bookings.repo.ts. The
 * connection's secret column is written sealed (secret-box.ts) and never leaves this feature.
 */
export type ConnectionRow = typeof calendarConnections.$inferSelect;
export type ProposalRow = typeof calendarProposals.$inferSelect;
export type NewConnection = typeof calendarConnections.$inferInsert;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export const connectionDto = (row: ConnectionRow): CalendarConnection => ({
  id: row.id,
  kind: row.kind as CalendarConnection['kind'],
  name: row.name,
  // An ICS address is a credential (a private feed's link): only its host is shown back.
  url: row.kind === 'ics' && row.url ? `${new URL(row.url).host}/…` : row.url,
  account: row.account,
  mode: row.mode as CalendarConnection['mode'],
  horizonDays: row.horizonDays,
  graceMinutes: row.graceMinutes,
  exclude: row.exclude,
  rules: row.rules,
  writesBookings: row.kind !== 'ics',
  liveUpdates: row.channelId !== null,
  status: row.status as CalendarConnection['status'],
  lastSyncedAt: iso(row.lastSyncedAt),
  lastError: row.lastError,
  failures: row.failures,
  nextSyncAt: row.nextSyncAt.toISOString(),
  skipped: row.skipped.map((event) => ({
    title: event.title,
    reason: event.reason,
    message: calendarSkipMessages[event.reason](event.title),
  })),
  createdAt: row.createdAt.toISOString(),
});

export const proposalDto = (row: ProposalRow): CalendarProposal => ({
  id: row.id,
  connectionId: row.connectionId,
  title: row.title,
  startsAt: row.startsAt.toISOString(),
  durationMinutes: row.durationMinutes,
  serviceId: row.serviceId,
  staffId: row.staffId,
  priceCents: row.priceCents,
  reason: row.reason as CalendarProposal['reason'],
  status: row.status as CalendarProposal['status'],
  opensAt: iso(row.opensAt),
  openingId: row.openingId,
  createdAt: row.createdAt.toISOString(),
});

// ---- connections ----

/**
 * A Google or Microsoft consent waiting for the owner's yes (issue 38): its tokens are kept sealed, but it is
 * never listed, read, leased, pushed to or written to until the owner confirms it (then its status is 'ok').
 */
export const PENDING_STATUS = 'pending';
const live = ne(calendarConnections.status, PENDING_STATUS);

/** The business's connections (pending consents left out). */
export const listConnections = (executor: Executor, userId: string) =>
  executor
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.userId, userId), live))
    .orderBy(asc(calendarConnections.createdAt));

export async function findConnection(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(calendarConnections)
    .where(and(eq(calendarConnections.userId, userId), eq(calendarConnections.id, id), live));
  return row;
}

/** A pending consent of the business's, locked for the rest of the transaction when asked (confirm). */
export async function findPendingConnection(executor: Executor, userId: string, id: string, lock = false) {
  const query = executor
    .select()
    .from(calendarConnections)
    .where(
      and(
        eq(calendarConnections.userId, userId),
        eq(calendarConnections.id, id),
        eq(calendarConnections.status, PENDING_STATUS),
      ),
    );
  const [row] = await (lock ? query.for('update') : query);
  return row;
}

/** Deletes pending consents: a business's (`userId`, one by `id`), or any created before `before`; answers them. */
export function deletePendingConnections(
  executor: Executor,
  which: { userId?: string; id?: string; before?: Date },
) {
  return executor
    .delete(calendarConnections)
    .where(
      and(
        eq(calendarConnections.status, PENDING_STATUS),
        which.userId ? eq(calendarConnections.userId, which.userId) : undefined,
        which.id ? eq(calendarConnections.id, which.id) : undefined,
        which.before ? lt(calendarConnections.createdAt, which.before) : undefined,
      ),
    )
    .returning();
}

/** A connection by id alone (the worker's, which acts for whichever business owns it). */
export async function connectionById(executor: Executor, id: string) {
  const [row] = await executor.select().from(calendarConnections).where(eq(calendarConnections.id, id));
  return row;
}

/** The connection's row, locked for the rest of the transaction (a sync writes from it). */
export async function lockConnection(executor: Executor, id: string) {
  const [row] = await executor
    .select()
    .from(calendarConnections)
    .where(eq(calendarConnections.id, id))
    .for('update');
  return row;
}

export async function insertConnection(executor: Executor, values: NewConnection) {
  const [row] = await executor.insert(calendarConnections).values(values).returning();
  return row!;
}

export async function updateConnection(
  executor: Executor,
  id: string,
  values: Partial<Omit<NewConnection, 'id' | 'userId'>>,
) {
  const [row] = await executor
    .update(calendarConnections)
    .set(values)
    .where(eq(calendarConnections.id, id))
    .returning();
  return row;
}

export async function deleteConnection(executor: Executor, userId: string, id: string) {
  const rows = await executor
    .delete(calendarConnections)
    .where(and(eq(calendarConnections.userId, userId), eq(calendarConnections.id, id)))
    .returning({ id: calendarConnections.id });
  return rows.length > 0;
}

/** Free connections (live, with no lease or an expired one) that meet `condition`. */
const free = (now: Date) =>
  and(live, or(isNull(calendarConnections.leaseUntil), lt(calendarConnections.leaseUntil, now)));

/**
 * Up to `limit` free connections meeting `condition`, in `order`, leased to the caller until `leaseUntil`:
 * SKIP LOCKED while choosing, the lease after, so another instance skips them.
 */
function leaseFree(
  executor: Executor,
  condition: SQL | undefined,
  order: AnyColumn,
  now: Date,
  leaseUntil: Date,
  limit: number,
) {
  const chosen = executor
    .select({ id: calendarConnections.id })
    .from(calendarConnections)
    .where(and(condition, free(now)))
    .orderBy(asc(order))
    .limit(limit)
    .for('update', { skipLocked: true });
  return executor
    .update(calendarConnections)
    .set({ leaseUntil })
    .where(inArray(calendarConnections.id, chosen))
    .returning();
}

/** Up to `limit` connections due for a sync, leased to the caller: each change is read by one instance. */
export const leaseDueConnections = (executor: Executor, now: Date, leaseUntil: Date, limit: number) =>
  leaseFree(
    executor,
    lte(calendarConnections.nextSyncAt, now),
    calendarConnections.nextSyncAt,
    now,
    leaseUntil,
    limit,
  );

/** One connection leased to the caller, unless another read holds it (none returned then). */
export function leaseConnection(executor: Executor, id: string, now: Date, leaseUntil: Date) {
  return executor
    .update(calendarConnections)
    .set({ leaseUntil })
    .where(and(eq(calendarConnections.id, id), free(now)))
    .returning();
}

// ---- push channels (Google events.watch, Graph subscriptions) ----

/** The connection a push names by its channel (Google channel id, Graph subscription id). */
export async function connectionByChannel(executor: Executor, channelId: string) {
  const [row] = await executor
    .select()
    .from(calendarConnections)
    .where(eq(calendarConnections.channelId, channelId));
  return row;
}

/** The connections several pushes name by their channels, in one statement (issue 38: a batch of ids). */
export function connectionsByChannels(executor: Executor, channelIds: string[]) {
  if (channelIds.length === 0) return Promise.resolve([] as ConnectionRow[]);
  return executor
    .select()
    .from(calendarConnections)
    .where(inArray(calendarConnections.channelId, channelIds));
}

/**
 * Up to `limit` connections of `kinds` whose push channel is missing or ends before `renewBy`, leased to the
 * caller as a sync is: each channel is renewed by one instance.
 */
export const leaseChannelsDue = (
  executor: Executor,
  kinds: readonly string[],
  now: Date,
  renewBy: Date,
  leaseUntil: Date,
  limit: number,
) =>
  leaseFree(
    executor,
    and(
      inArray(calendarConnections.kind, [...kinds]),
      or(isNull(calendarConnections.channelExpiresAt), lt(calendarConnections.channelExpiresAt, renewBy)),
    ),
    calendarConnections.channelExpiresAt,
    now,
    leaseUntil,
    limit,
  );

// ---- events: calendar-events.repo.ts ----

export { eventsBetween, eventsOf, replaceEvents, type StoredEvent } from './calendar-events.repo.ts';

// ---- proposals ----

/** New proposals; one already made for the same instance and start is left as it is (a re-sync). */
export async function insertProposals(executor: Executor, rows: (typeof calendarProposals.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return executor.insert(calendarProposals).values(rows).onConflictDoNothing().returning();
}

/** The proposals still waiting for the owner (proposed, or scheduled to open by themselves), soonest first. */
export function waitingProposals(executor: Executor, userId: string, now: Date) {
  return executor
    .select()
    .from(calendarProposals)
    .where(
      and(
        eq(calendarProposals.userId, userId),
        inArray(calendarProposals.status, ['proposed', 'scheduled']),
        gt(calendarProposals.startsAt, now),
      ),
    )
    .orderBy(asc(calendarProposals.startsAt));
}

/** A proposal of the business's, locked; only one still waiting. */
export async function lockWaitingProposal(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(calendarProposals)
    .where(
      and(
        eq(calendarProposals.userId, userId),
        eq(calendarProposals.id, id),
        inArray(calendarProposals.status, ['proposed', 'scheduled']),
      ),
    )
    .for('update');
  return row;
}

/** Scheduled proposals whose grace period is over, locked (SKIP LOCKED: another instance takes the rest). */
export function dueScheduledProposals(executor: Executor, now: Date, limit: number) {
  return executor
    .select()
    .from(calendarProposals)
    .where(and(eq(calendarProposals.status, 'scheduled'), lte(calendarProposals.opensAt, now)))
    .orderBy(asc(calendarProposals.opensAt))
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function setProposal(
  executor: Executor,
  id: string,
  values: Partial<Pick<ProposalRow, 'status' | 'openingId' | 'opensAt' | 'updatedAt'>>,
) {
  const [row] = await executor
    .update(calendarProposals)
    .set(values)
    .where(eq(calendarProposals.id, id))
    .returning();
  return row!;
}
