import {
  type AlertsToday,
  alertsPerDay,
  type CreateOpeningBody,
  isClaim,
  pushMessages,
  renderTemplate,
  replyMessages,
  type TimePreference,
  waitlistMessages,
} from '@waitlist/contract';
import type { SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { withoutQueryValues } from '../../lib/db-errors.ts';
import { BadRequest, Forbidden, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import {
  formatLocal,
  localDate,
  localTime,
  nextLocalMidnight,
  parseStartsAt,
  wallClock,
  zonedFormat,
} from '../../lib/time-zone.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import {
  type AutoAnswerRule,
  type EnqueueSmsInput,
  type InboundReplyHandler,
  type QuietReplyCondition,
  TextingRefused,
} from '../messaging/messaging.service.ts';
import { openingFilledEmail } from './openings.emails.ts';
import * as repo from './openings.repo.ts';

/** A customer without preferences fits any time; otherwise one window must hold the start (day and HH:MM). */
export function fitsPreferences(preferences: TimePreference[], startsAt: Date, timeZone: string): boolean {
  if (!preferences || preferences.length === 0) return true;
  const { weekday } = wallClock(startsAt, timeZone);
  const time = localTime(startsAt, timeZone);
  return preferences.some((p) => p.days.includes(weekday) && p.from <= time && time <= p.to);
}

const TEXT_DAY: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' };
const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };

/** How a slot reads in a text: "Tue, Nov 24 at 3:00 PM". */
function textTime(instant: Date, timeZone: string) {
  return `${zonedFormat(TEXT_DAY, timeZone).format(instant)} at ${zonedFormat(CLOCK_TIME, timeZone).format(instant)}`;
}
/** An all-at-once alert still open this long after it went out: the owner's phone is told (issue 14). */
export const UNCLAIMED_NOTICE_MINUTES = 15;
/** How a slot reads in a push: "3:00 pm". */
const pushTime = (instant: Date, timeZone: string) =>
  zonedFormat(CLOCK_TIME, timeZone).format(instant).replace(/\s/g, ' ').toLowerCase();
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;
/** The automatic answer to a free-text reply, for the business's name as stored. */
const autoAnswerText = (businessName: string) => replyMessages.autoAnswer(businessName || 'Your business');

export type OpeningsService = ReturnType<typeof createOpeningsService>;

/** A text queued in the caller's transaction (features/messaging's enqueueSms, handed over in app.ts). */
export type EnqueueSms = (executor: Executor, input: EnqueueSmsInput) => Promise<{ messageId: string }>;

/** What openings need from other features, wired in app.ts (decision 0008). */
export interface OpeningsDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker; called after a commit that queued texts or email. */
  onOutboxWrite?: () => void;
  /** Why the owner's waitlist is read-only now (billing standing), or null. */
  readOnlyReason: (user: UserRow, now: Date) => string | null;
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
    releaseCustomer(executor: Executor, id: string, now: Date): Promise<unknown>;
    releaseOfferedBy(executor: Executor, openingId: string): Promise<void>;
    /** True at most once per customer per 24 hours: the automatic answer to a free-text reply (issue 15). */
    claimAutoAnswer(
      executor: Executor,
      customer: Pick<CustomerRow, 'id' | 'autoAnsweredAt'>,
      now: Date,
    ): Promise<boolean>;
    /** claimAutoAnswer's "no answer due" in SQL, over the customers row `c` at `now`. */
    autoAnsweredRecently(c: SQL, now: SQL): SQL;
    /** claimAutoAnswer with the first-text mark, as part of a statement (the customer's id is SQL). */
    claimAutoAnswerSql(customerId: SQL, now: SQL): SQL;
    templatesOf(
      executor: Executor,
      userId: string,
    ): Promise<Record<'cancellation_alert' | 'claimed' | 'already_filled', { body: string }>>;
  };
  enqueueSms: EnqueueSms;
  /** Texts of one business queued together, in order (features/messaging's enqueueSmsMany). */
  enqueueSmsMany: (executor: Executor, inputs: EnqueueSmsInput[]) => Promise<{ messageId: string }[]>;
  /** Queues a web push to the owner's devices in the caller's transaction (features/push; issue 14). */
  notifyOwner?: (
    tx: Executor,
    userId: string,
    message: { title: string; body: string; url: string },
    now: Date,
  ) => Promise<number>;
}

export function createOpeningsService(deps: OpeningsDeps) {
  const { db, clock, customers, users, enqueueSms, enqueueSmsMany, readOnlyReason } = deps;
  const wakeOutbox = () => deps.onOutboxWrite?.();

  function alertsToday(
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

  /**
   * Texts wave `wave` of an opening (the caller holds the opening's row lock). Customers who since opted out,
   * were removed or booked are skipped; a wave left empty moves on to the next. Returns the wave sent, or 0.
   */
  async function sendWave(
    tx: Executor,
    opening: repo.OpeningRow,
    owner: UserRow,
    firstWave: number,
    now: Date,
  ) {
    const templates = await customers.templatesOf(tx, owner.id);
    const time = textTime(opening.startsAt, owner.timeZone);
    for (let wave = firstWave; ; wave += 1) {
      const due = await repo.pendingOffersOfWave(tx, opening.id, wave);
      if (due.length === 0) {
        if (!(await repo.hasLaterPendingWave(tx, opening.id, wave))) {
          await repo.setNextWaveAt(tx, opening.id, null);
          return 0;
        }
        continue;
      }
      const textable = (customer: CustomerRow) =>
        !customer.optedOut && (customer.status === 'waiting' || customer.status === 'offered');
      const customersDue = due.map(({ customer }) => customer);
      const eligible = customersDue.filter(textable);
      const skipped = customersDue.filter((customer) => !textable(customer)).map((customer) => customer.id);
      await repo.setOfferStatus(tx, opening.id, skipped, { status: 'skipped' });
      // The wave's texts, offers and customers in a handful of statements, whatever its size (issue 16).
      await enqueueSmsMany(
        tx,
        eligible.map((customer) => ({
          userId: owner.id,
          customerId: customer.id,
          openingId: opening.id,
          to: customer.phone,
          body: renderTemplate(templates.cancellation_alert.body, {
            name: firstName(customer.name),
            business: owner.businessName,
            time: `${time} (${opening.service})`,
          }),
          now,
        })),
      );
      const texted = eligible.map((customer) => customer.id);
      await repo.setOfferStatus(tx, opening.id, texted, { status: 'sent', sentAt: now });
      await customers.setCustomerStatus(tx, texted, 'offered', now);
      const sent = texted.length;
      if (sent === 0) continue;
      const later = await repo.hasLaterPendingWave(tx, opening.id, wave);
      const window = opening.claimWindowMinutes ?? 0;
      await repo.setNextWaveAt(
        tx,
        opening.id,
        later && opening.mode === 'waves' ? new Date(now.getTime() + window * 60_000) : null,
      );
      return wave;
    }
  }

  async function detail(userId: string, id: string) {
    const [opening] = await repo.listOpenings(db, userId, id);
    if (!opening) throw new NotFound(waitlistMessages.openingNotFound);
    const offerRows = await repo.offersOf(db, id);
    return { ...opening, offers: offerRows.map(repo.offerDto) };
  }

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

  /**
   * features/messaging's reply handler (wired in app.ts): a YES claims the slot it answers, inside the
   * inbound text's transaction. Messaging wakes the outbox after that transaction commits.
   */
  const onCustomerReply: InboundReplyHandler = async (input) => {
    const { tx, userId, business, customer, body, now } = input;
    if (!isClaim(body)) {
      // A free-text reply (keywords never reach here) goes to the owner, never into silence: their phone
      // hears of it (when push is on), and the customer gets one automatic answer (at most one per 24 hours).
      if (business.pushEnabled) {
        await deps.notifyOwner?.(
          tx,
          userId,
          {
            title: pushMessages.replyTitle,
            body: `${firstName(customer.name)}: ${body.slice(0, 120)}`,
            url: `/inbox/${customer.id}`,
          },
          now,
        );
      }
      if (customer.status === 'removed' || !(await customers.claimAutoAnswer(tx, customer, now))) return;
      try {
        await enqueueSms(tx, {
          userId,
          customerId: customer.id,
          to: customer.phone,
          body: autoAnswerText(business.name),
          now,
        });
      } catch (error) {
        if (!(error instanceof TextingRefused)) throw error;
        deps.logger.warn({ userId, reason: error.reason }, 'automatic answer not sent');
      }
      return;
    }
    if (customer.status === 'removed') return;
    const answered = await repo.openingAnsweredBy(tx, userId, customer.id);
    if (!answered) return;
    const { opening } = answered;
    if (opening.winnerCustomerId === customer.id) return; // the winner said YES again
    // An opening read as no longer open never opens again (filled, expired and closed are final), so a late
    // YES skips the claim's round trip and lock wait (issue 16: most of the race's replies arrive then).
    const won =
      opening.status === 'open' ? await repo.claimOpening(tx, opening.id, customer.id, now) : undefined;
    const values = {
      name: firstName(customer.name),
      business: business.name,
      time: textTime(opening.startsAt, business.timeZone),
    };
    if (!won) {
      // Back to waiting unless another open alert holds them; only an offered customer can be (the status was
      // read with the text: a customer read as waiting or booked is left as is, no statement needed).
      if (customer.status === 'offered') await customers.releaseCustomer(tx, customer.id, now);
      // Told when the slot was filled: one text per customer per opening, so a late YES gets nothing more. An
      // opening read as decided came with its told mark; one read as open was filled by a claim that
      // committed after that read, so the mark is read again.
      const told =
        opening.status === 'open'
          ? await repo.wasTold(tx, opening.id, customer.id)
          : answered.toldAt !== null;
      if (told) return;
      const templates = await customers.templatesOf(tx, userId);
      await enqueueSms(tx, {
        userId,
        customerId: customer.id,
        to: customer.phone,
        body: renderTemplate(templates.already_filled.body, values),
        now,
      });
      return;
    }
    // The winner: the owner's email address for the "slot filled" email, and the texts' templates.
    const owner = await users.findUserById(tx, userId);
    if (!owner) return;
    const templates = await customers.templatesOf(tx, userId);
    await customers.setCustomerStatus(tx, customer.id, 'booked', now);
    await repo.setOfferStatus(tx, opening.id, customer.id, { status: 'won' });
    const others = await repo.offersToTell(tx, opening.id, customer.id);
    await repo.settleOffers(tx, opening.id);
    await customers.releaseOfferedBy(tx, opening.id);
    // The winner hears first; then everyone else who was texted about it is told it is taken, once (issue
    // 15), all queued together (issue 16: the race's other replies wait on this transaction).
    await enqueueSmsMany(tx, [
      {
        userId,
        customerId: customer.id,
        to: customer.phone,
        body: renderTemplate(templates.claimed.body, values),
        now,
      },
      ...others.map((other) => ({
        userId,
        customerId: other.customerId,
        to: other.phone,
        body: renderTemplate(templates.already_filled.body, { ...values, name: firstName(other.name) }),
        now,
      })),
    ]);
    await repo.markTold(
      tx,
      opening.id,
      others.map((other) => other.customerId),
      now,
    );
    await enqueueEmail(
      tx,
      openingFilledEmail(owner, {
        customerName: customer.name,
        customerPhone: customer.phone,
        service: opening.service,
        time: formatLocal(opening.startsAt, owner.timeZone),
        openingsUrl: `${deps.publicUrl}/openings`,
      }),
      now,
    );
    await deps.notifyOwner?.(
      tx,
      userId,
      {
        title: pushMessages.claimedTitle(values.name, pushTime(opening.startsAt, owner.timeZone)),
        body: pushMessages.claimedBody,
        url: '/openings',
      },
      now,
    );
  };

  /**
   * The replies onCustomerReply does nothing with, in SQL (openings.repo.ts replyChangesNothing): features/
   * messaging stores them in one statement (issue 16). It mirrors the branches above; quiet-replies.test.ts
   * holds the two to the same answers.
   */
  const quietReply: QuietReplyCondition = ({ u, c }, now, claim) =>
    repo.replyChangesNothing(u, c, claim, customers.autoAnsweredRecently(c, now));

  /**
   * The free-text replies whose one consequence above is the automatic answer, in SQL
   * (openings.repo.ts onlyAutoAnswerDue), with its claim and its text: features/messaging stores such a reply
   * and queues the answer in one statement (issue 16). quiet-replies.test.ts holds it to the branch above.
   */
  const autoAnswer: AutoAnswerRule = {
    due: ({ u, c }, now) => repo.onlyAutoAnswerDue(u, c, customers.autoAnsweredRecently(c, now)),
    claim: customers.claimAutoAnswerSql,
    text: autoAnswerText,
  };

  /**
   * "Nobody has claimed your slot yet": one push per alert, when its first claim window (waves) or
   * UNCLAIMED_NOTICE_MINUTES (all at once) passed and the slot is still open (decision 0009).
   */
  async function notifyUnclaimed(now: Date): Promise<number> {
    const notify = deps.notifyOwner;
    if (!notify) return 0;
    return db.transaction(async (tx) => {
      let queued = 0;
      for (const opening of await repo.takeDueUnclaimedNotices(tx, now)) {
        const owner = await users.findUserById(tx, opening.userId);
        if (!owner) continue;
        queued += await notify(
          tx,
          opening.userId,
          {
            title: pushMessages.unclaimedTitle,
            body: pushMessages.unclaimedBody(pushTime(opening.startsAt, owner.timeZone)),
            url: '/openings',
          },
          now,
        );
      }
      return queued;
    });
  }

  return {
    onCustomerReply,
    quietReply,
    autoAnswer,

    async list(user: UserRow) {
      const now = clock.now();
      const [data, used] = await Promise.all([
        repo.listOpenings(db, user.id),
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

    /** Opens a slot: one cancellation alert to the waiting, opted-in customers who fit, in waitlist order. */
    async create(user: UserRow, input: CreateOpeningBody) {
      const now = clock.now();
      const id = await db.transaction(async (tx) => {
        const owner = await users.lockUser(tx, user.id);
        if (!owner) throw new NotFound(waitlistMessages.openingNotFound);
        const reason = readOnlyReason(owner, now);
        if (reason) throw new Forbidden(reason);
        const startsAt = parseStartsAt(input.startsAt, owner.timeZone);
        if (!startsAt)
          throw new BadRequest(waitlistMessages.invalidStartsAt, {
            startsAt: waitlistMessages.invalidStartsAt,
          });
        if (startsAt.getTime() <= now.getTime()) {
          throw new BadRequest(waitlistMessages.openingInPast, { startsAt: waitlistMessages.openingInPast });
        }
        const today = localDate(now, owner.timeZone);
        const limit = alertsPerDay(owner.subscriptionPlan);
        if (limit !== null && (await repo.countAlertsOn(tx, owner.id, today)) >= limit) {
          const resetsAt = formatLocal(nextLocalMidnight(now, owner.timeZone), owner.timeZone);
          throw new Forbidden(waitlistMessages.alertsLimit(owner.subscriptionPlan, limit, resetsAt));
        }
        const candidates = await customers.alertCandidates(tx, owner.id);
        const eligible = candidates.filter((c) => fitsPreferences(c.preferences, startsAt, owner.timeZone));
        if (eligible.length === 0) throw new BadRequest(waitlistMessages.noEligibleCustomers);
        const waves = input.mode === 'waves';
        const waveSize = waves ? (input.waveSize ?? 1) : null;
        const opening = await repo.insertOpening(tx, {
          userId: owner.id,
          startsAt,
          durationMinutes: input.durationMinutes,
          service: input.service,
          priceCents: input.priceCents ?? null,
          mode: waves ? 'waves' : 'all',
          waveSize,
          claimWindowMinutes: waves ? (input.claimWindowMinutes ?? 10) : null,
          unclaimedNoticeAt: new Date(
            now.getTime() + (waves ? (input.claimWindowMinutes ?? 10) : UNCLAIMED_NOTICE_MINUTES) * 60_000,
          ),
          localDate: today,
          createdAt: now,
        });
        await repo.insertOffers(
          tx,
          eligible.map((customer, index) => ({
            openingId: opening.id,
            customerId: customer.id,
            wave: waveSize ? Math.floor(index / waveSize) + 1 : 1,
          })),
        );
        await sendWave(tx, opening, owner, 1, now);
        return opening.id;
      });
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
     * What time makes due (the worker's tick, clock-driven): openings whose start has passed expire; open
     * waves whose claim window ran out without a claim send the next wave. Each opening is handled in its
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
            const owner = await users.findUserById(tx, opening.userId);
            if (!owner) return;
            const last = await repo.lastSentWave(tx, id);
            if (await sendWave(tx, opening, owner, last + 1, now)) wavesSent += 1;
          });
        } catch (error) {
          deps.logger.error({ err: withoutQueryValues(error), openingId: id }, 'next wave failed');
        }
      }
      const unclaimed = await notifyUnclaimed(now);
      if (wavesSent || unclaimed) wakeOutbox();
      return { expired, wavesSent };
    },

    alertsToday,
  };
}
