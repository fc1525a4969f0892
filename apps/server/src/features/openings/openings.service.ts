import {
  type AlertsToday,
  alertsPerDay,
  type CreateOpeningBody,
  type Locale,
  type OfferSettings,
  type OpeningPreview,
  readReply,
  waitlistMessages,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { withoutQueryValues } from '../../lib/db-errors.ts';
import { BadRequest, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { localDate, nextLocalMidnight } from '../../lib/time-zone.ts';
import type { EnqueueSmsInput } from '../messaging/messaging.service.ts';
import type { NotifyOwner } from '../push/push.service.ts';
import { createClaims } from './claims.ts';
import { openSlot, planFor, previewOf } from './open-slot.ts';
import * as repo from './openings.repo.ts';
import { releaseClaim, releaseTextOf, tryRelease } from './release.ts';
import { advanceOpening, notifyUnclaimed } from './waves.ts';

export type { ClaimInput, ClaimTarget, ToldOthers } from './claims.ts';
/** Offers and claims as the conversation acts on them (claims.ts, and a winner's back-out: release.ts). */
export type OfferClaims = OpeningsService['claims'];

export type OpeningsService = ReturnType<typeof createOpeningsService>;

/** A text queued in the caller's transaction (features/messaging's enqueueSms, handed over in composition.ts). */
export type EnqueueSms = (executor: Executor, input: EnqueueSmsInput) => Promise<{ messageId: string }>;

/** What openings need from other features, wired in composition.ts (decision 0008). */
export interface OpeningsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker; called after a commit that queued texts or email. */
  onOutboxWrite?: () => void;
  /** Why the owner's waitlist is read-only now (billing standing), or null. */
  readOnlyReason: (user: UserRow, now: Date) => string | null;
  /** Why the business cannot text yet (no verified number: features/messaging's refusal), or null. */
  senderRefusal: (user: UserRow) => Error | null;
  /** The owners (features/auth). */
  users: {
    lockUser(executor: Executor, userId: string): Promise<UserRow | undefined>;
    findUserById(executor: Executor, userId: string): Promise<UserRow | undefined>;
  };
  /** The customers and their templates (features/waitlist). */
  customers: {
    alertCandidates(executor: Executor, userId: string): Promise<CustomerRow[]>;
    setCustomerStatus(
      executor: Executor,
      ids: string | string[],
      status: CustomerRow['status'],
      now: Date,
    ): Promise<unknown>;
    /** Back to waiting unless another open alert holds them; answers the status after. */
    releaseCustomer(executor: Executor, id: string, now: Date): Promise<CustomerRow['status']>;
    releaseOfferedBy(executor: Executor, openingId: string): Promise<void>;
    /** The owner's templates in a customer's language (issue 28). */
    templatesOf(
      executor: Executor,
      userId: string,
      language: Locale,
    ): Promise<Record<'cancellation_alert' | 'claimed' | 'already_filled', { body: string }>>;
  };
  /** The texts customers sent the business since a time, newest first (features/messaging). */
  replies: {
    since(
      executor: Executor,
      userId: string,
      customerIds: string[],
      since: Date,
    ): Promise<{ customerId: string | null; body: string; createdAt: Date }[]>;
  };
  /** The business's services, staff and offer rules (features/services; issue 26). */
  catalog: {
    findService(
      executor: Executor,
      userId: string,
      id: string,
    ): Promise<{ id: string; name: string; durationMinutes: number; priceCents: number | null } | undefined>;
    findStaff(
      executor: Executor,
      userId: string,
      id: string,
    ): Promise<{ id: string; name: string } | undefined>;
    listServices(
      executor: Executor,
      userId: string,
    ): Promise<{ id: string; name: string; durationMinutes: number }[]>;
    staffByIds(executor: Executor, ids: string[]): Promise<{ id: string; name: string }[]>;
    offerSettingsOf(executor: Executor, userId: string): Promise<OfferSettings>;
  };
  enqueueSms: EnqueueSms;
  /** Texts of one business queued together, in order (features/messaging's enqueueSmsMany). */
  enqueueSmsMany: (executor: Executor, inputs: EnqueueSmsInput[]) => Promise<{ messageId: string }[]>;
  /** Queues a web push to the owner's devices in the caller's transaction (features/push; issue 14). */
  notifyOwner?: NotifyOwner;
  /**
   * Records, in the caller's transaction, that a claimed slot should be booked into the business's connected
   * calendars, or removed from them when the claim is released (features/calendar; issue 29).
   */
  calendarBookings?: {
    want(
      tx: Executor,
      input: { userId: string; openingId: string; wanted: 'booked' | 'removed'; now: Date },
    ): Promise<unknown>;
  };
}

/** The plan's alerts a day, how many were used today and when the count resets (the owner's midnight). */
export function alertsToday(
  user: Pick<UserRow, 'subscriptionPlan' | 'timeZone'>,
  used: number,
  now: Date,
): AlertsToday {
  return {
    used,
    limit: alertsPerDay(user.subscriptionPlan),
    resetsAt: nextLocalMidnight(now, user.timeZone).toISOString(),
  };
}

/** Openings with their staff member's name, from features/services (the owner of staff_members). */
async function listed(deps: Pick<OpeningsDeps, 'db' | 'catalog'>, userId: string, only?: string) {
  const rows = await repo.listOpenings(deps.db, userId, only);
  const ids = [...new Set(rows.flatMap((row) => (row.staffId ? [row.staffId] : [])))];
  const names = new Map(
    (ids.length ? await deps.catalog.staffByIds(deps.db, ids) : []).map((staff) => [staff.id, staff.name]),
  );
  return rows.map((row) => ({ ...row, staffName: row.staffId ? (names.get(row.staffId) ?? null) : null }));
}

/**
 * What each texted customer last asked since their alert (issue 27: "Asked: what time?" on their row): their
 * newest text after it that the catalogue reads as neither a keyword, a claim nor a back-out.
 */
async function questionsOf(
  deps: OpeningsDeps,
  userId: string,
  rows: { customerId: string; sentAt: Date | null }[],
): Promise<Map<string, { body: string; at: string }>> {
  const sentAt = new Map(rows.flatMap((row) => (row.sentAt ? [[row.customerId, row.sentAt] as const] : [])));
  const questions = new Map<string, { body: string; at: string }>();
  if (sentAt.size === 0) return questions;
  const since = new Date(Math.min(...[...sentAt.values()].map((at) => at.getTime())));
  for (const reply of await deps.replies.since(deps.db, userId, [...sentAt.keys()], since)) {
    const customerId = reply.customerId!;
    if (questions.has(customerId) || reply.createdAt < sentAt.get(customerId)!) continue;
    const reading = readReply(reply.body);
    if (reading.keyword || reading.claim || reading.backOut) continue;
    questions.set(customerId, { body: reply.body, at: reply.createdAt.toISOString() });
  }
  return questions;
}

/** One opening with its offers, each with what the customer asked since their alert. */
async function openingDetail(deps: OpeningsDeps, userId: string, id: string) {
  const [opening] = await listed(deps, userId, id);
  if (!opening) throw new NotFound(waitlistMessages.openingNotFound);
  const offerRows = await repo.offersOf(deps.db, id);
  const questions = await questionsOf(deps, userId, offerRows);
  const owner = await deps.users.findUserById(deps.db, userId);
  const startsAt = new Date(opening.startsAt);
  return {
    ...opening,
    releaseText: owner
      ? await releaseTextOf(deps.db, owner, { ...opening, startsAt }, deps.clock.now())
      : null,
    offers: offerRows.map((row) => ({
      ...repo.offerDto(row),
      question: questions.get(row.customerId) ?? null,
    })),
  };
}

export function createOpeningsService(deps: OpeningsDeps) {
  const detail = (userId: string, id: string) => openingDetail(deps, userId, id);
  const { db, clock, customers, users, readOnlyReason } = deps;
  const wakeOutbox = () => deps.onOutboxWrite?.();

  /** Closes or expires an open opening (its row locked by the UPDATE's condition) and frees its customers. */
  async function finish(
    tx: Executor,
    where: ReturnType<typeof repo.openingIs>,
    status: 'closed' | 'expired',
  ) {
    const done = await repo.finishOpenings(tx, where, status);
    for (const { id } of done) {
      await repo.settleOffers(tx, id);
      await customers.releaseOfferedBy(tx, id);
    }
    return done.length;
  }

  return {
    /** Offers and claims as the conversation (features/conversation) acts on them. */
    claims: {
      ...createClaims(deps),
      /** The winner texted that they cannot come: the slot goes to the next (false: nothing to give back). */
      backOut: async (
        tx: Executor,
        input: { userId: string; customerId: string; openingId: string; now: Date },
      ) => (await tryRelease(deps, tx, { ...input, winnerId: input.customerId })) === 'released',
    },

    async list(user: UserRow) {
      const now = clock.now();
      const [data, used] = await Promise.all([
        listed(deps, user.id),
        repo.countAlertsOn(db, user.id, localDate(now, user.timeZone)),
      ]);
      const reason = readOnlyReason(user, now);
      return {
        data,
        alertsToday: alertsToday(user, used, now),
        timeZone: user.timeZone,
        readOnly: reason !== null,
        readOnlyReason: reason,
      };
    },

    get: (user: UserRow, id: string) => detail(user.id, id),

    /**
     * What opening this slot would do, written nowhere (the form's confirm step, issue 26): who fits, in what
     * order and wave, when the first text goes (quiet hours), and the texts the plan expects.
     */
    async preview(user: UserRow, input: CreateOpeningBody): Promise<OpeningPreview> {
      const now = clock.now();
      const refused = deps.senderRefusal(user);
      if (refused) throw refused;
      const planned = await planFor(deps, db, user, input, now);
      if (planned.plan.offers.length === 0) throw new BadRequest(waitlistMessages.noEligibleCustomers);
      return previewOf(planned, now, user.timeZone);
    },

    /** Opens a slot: the cancellation alert to the customers who fit, in the offer policy's order and waves. */
    async create(user: UserRow, input: CreateOpeningBody) {
      const now = clock.now();
      const id = await db.transaction((tx) => openSlot(deps, tx, user.id, input, now));
      wakeOutbox();
      return detail(user.id, id);
    },

    /** Opens a slot in the caller's transaction (a calendar's cancellation, issue 29), as `create` does. */
    openIn: (tx: Executor, userId: string, input: CreateOpeningBody, now: Date) =>
      openSlot(deps, tx, userId, input, now),

    /** The winner backed out: the slot goes to the next customers in the plan's order (issue 26). */
    async release(user: UserRow, id: string, note?: string) {
      const now = clock.now();
      await db.transaction((tx) => releaseClaim(deps, tx, { userId: user.id, openingId: id, now, note }));
      wakeOutbox();
      return detail(user.id, id);
    },

    async close(user: UserRow, id: string) {
      const opening = await repo.findOpening(db, user.id, id);
      if (!opening) throw new NotFound(waitlistMessages.openingNotFound);
      const closed = await db.transaction((tx) => finish(tx, repo.openingIs(id), 'closed'));
      if (closed === 0) throw new BadRequest(waitlistMessages.openingNotOpen);
      return detail(user.id, id);
    },

    /**
     * What time makes due (the worker's tick, clock-driven): openings whose start has passed expire; held
     * texts whose quiet hours ended go; open waves whose claim window ran out without a claim send the next. Each opening is handled in its
     * own transaction under its row lock (SKIP LOCKED), so several workers may run side by side.
     */
    async runDue() {
      const now = clock.now();
      const expired = await db.transaction((tx) => finish(tx, repo.openingStartedBy(now), 'expired'));
      let wavesSent = 0;
      const due = await repo.dueWaves(db, now, 100);
      for (const { id } of due) {
        try {
          await db.transaction(async (tx) => {
            const opening = await repo.lockDueOpening(tx, id, now);
            if (!opening) return;
            // The owner's row, after the opening's: one business's texts are decided one transaction at a
            // time, so two workers cannot both count a customer under the daily cap (issue 26).
            const owner = await users.lockUser(tx, opening.userId);
            if (!owner) return;
            if (await advanceOpening(deps, tx, { opening, owner, now })) wavesSent += 1;
          });
        } catch (error) {
          deps.logger.error({ err: withoutQueryValues(error), openingId: id }, 'next wave failed');
        }
      }
      const unclaimed = await notifyUnclaimed(deps, now);
      if (wavesSent || unclaimed) wakeOutbox();
      return { expired, wavesSent };
    },

    alertsToday,
  };
}
