import {
  type AlertsToday,
  alertsPerDay,
  type CreateOpeningBody,
  renderTemplate,
  type TimePreference,
  waitlistMessages,
} from '@waitlist/contract';
import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { customers, offers, openings, users } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { withoutQueryValues } from '../../lib/db-errors.ts';
import { BadRequest, Forbidden, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { UserRow } from '../auth/auth.repo.ts';
import { enqueueSms, type InboundReplyHandler } from '../messaging/messaging.service.ts';
import { enqueueEmail } from '../outbox/outbox.repo.ts';
import {
  formatLocal,
  localDate,
  localTime,
  nextLocalMidnight,
  parseStartsAt,
  wallClock,
} from '../waitlist/time-zone.ts';
import { lockUser, templatesOf } from '../waitlist/waitlist.repo.ts';
import { readOnlyReason } from '../waitlist/waitlist.service.ts';
import { openingFilledEmail } from './openings.emails.ts';
import * as repo from './openings.repo.ts';

/** "YES" in any case, with surrounding spaces or punctuation ("yes!", " Yes. ", "YES!!!"). */
export function isYes(body: string): boolean {
  return /^[\s\p{P}\p{S}]*yes[\s\p{P}\p{S}]*$/iu.test(body);
}

/** A customer without preferences fits any time; otherwise one window must hold the start (day and HH:MM). */
export function fitsPreferences(preferences: TimePreference[], startsAt: Date, timeZone: string): boolean {
  if (!preferences || preferences.length === 0) return true;
  const { weekday } = wallClock(startsAt, timeZone);
  const time = localTime(startsAt, timeZone);
  return preferences.some((p) => p.days.includes(weekday) && p.from <= time && time <= p.to);
}

/** How a slot reads in a text: "Tue, Nov 24 at 3:00 PM". */
function textTime(instant: Date, timeZone: string) {
  const day = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  }).format(instant);
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' }).format(
    instant,
  );
  return `${day} at ${time}`;
}
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

export type OpeningsService = ReturnType<typeof createOpeningsService>;

export function createOpeningsService(deps: {
  db: Database;
  clock: Clock;
  logger: Logger;
  publicUrl: string;
  onOutboxWrite?: () => void;
}) {
  const { db, clock } = deps;
  const kick = () => deps.onOutboxWrite?.();

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
    const templates = await templatesOf(tx, owner.id);
    const time = textTime(opening.startsAt, owner.timeZone);
    for (let wave = firstWave; ; wave += 1) {
      const due = await tx
        .select({ customer: customers })
        .from(offers)
        .innerJoin(customers, eq(customers.id, offers.customerId))
        .where(and(eq(offers.openingId, opening.id), eq(offers.wave, wave), eq(offers.status, 'pending')))
        .orderBy(asc(customers.position));
      if (due.length === 0) {
        const [later] = await tx
          .select({ wave: offers.wave })
          .from(offers)
          .where(
            and(
              eq(offers.openingId, opening.id),
              eq(offers.status, 'pending'),
              sql`${offers.wave} > ${wave}`,
            ),
          )
          .limit(1);
        if (!later) {
          await tx.update(openings).set({ nextWaveAt: null }).where(eq(openings.id, opening.id));
          return 0;
        }
        continue;
      }
      let sent = 0;
      for (const { customer } of due) {
        const eligible =
          !customer.optedOut && (customer.status === 'waiting' || customer.status === 'offered');
        if (!eligible) {
          await tx
            .update(offers)
            .set({ status: 'skipped' })
            .where(and(eq(offers.openingId, opening.id), eq(offers.customerId, customer.id)));
          continue;
        }
        const body = renderTemplate(templates.cancellation_alert.body, {
          name: firstName(customer.name),
          business: owner.businessName,
          time: `${time} (${opening.service})`,
        });
        await enqueueSms(tx, {
          userId: owner.id,
          customerId: customer.id,
          openingId: opening.id,
          to: customer.phone,
          body,
          now,
        });
        await tx
          .update(offers)
          .set({ status: 'sent', sentAt: now })
          .where(and(eq(offers.openingId, opening.id), eq(offers.customerId, customer.id)));
        await tx
          .update(customers)
          .set({ status: 'offered', updatedAt: now })
          .where(eq(customers.id, customer.id));
        sent += 1;
      }
      if (sent === 0) continue;
      const [later] = await tx
        .select({ wave: offers.wave })
        .from(offers)
        .where(
          and(eq(offers.openingId, opening.id), eq(offers.status, 'pending'), sql`${offers.wave} > ${wave}`),
        )
        .limit(1);
      const window = opening.claimWindowMinutes ?? 0;
      await tx
        .update(openings)
        .set({
          nextWaveAt: later && opening.mode === 'waves' ? new Date(now.getTime() + window * 60_000) : null,
        })
        .where(eq(openings.id, opening.id));
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
  async function finish(tx: Executor, where: ReturnType<typeof and>, status: 'closed' | 'expired') {
    const done = await tx
      .update(openings)
      .set({ status, nextWaveAt: null })
      .where(and(where, eq(openings.status, 'open')))
      .returning({ id: openings.id });
    for (const { id } of done) {
      await repo.settleOffers(tx, id);
      await repo.releaseOffered(tx, id);
    }
    return done.length;
  }

  const onCustomerReply: InboundReplyHandler = async ({ tx, userId, customer, body, now }) => {
    if (!isYes(body) || customer.status === 'removed') return;
    // The alert this YES answers: an open one first, else the most recent one the customer was texted.
    const [offer] = await tx
      .select({ opening: openings })
      .from(offers)
      .innerJoin(openings, eq(openings.id, offers.openingId))
      .where(and(eq(offers.customerId, customer.id), eq(openings.userId, userId), isNotNull(offers.sentAt)))
      .orderBy(desc(sql`${openings.status} = 'open'`), desc(offers.sentAt))
      .limit(1);
    if (!offer) return;
    const opening = offer.opening;
    if (opening.winnerCustomerId === customer.id) return; // the winner said YES again
    // The claim: one conditional UPDATE. Concurrent YES replies queue on the opening's row lock and
    // re-check `status = 'open'` after the winner commits, so exactly one of them gets a row back.
    const [won] = await tx
      .update(openings)
      .set({ status: 'filled', winnerCustomerId: customer.id, filledAt: now, nextWaveAt: null })
      .where(
        and(eq(openings.id, opening.id), eq(openings.status, 'open'), sql`${openings.startsAt} > ${now}`),
      )
      .returning();
    const [owner] = await tx.select().from(users).where(eq(users.id, userId));
    if (!owner) return;
    const templates = await templatesOf(tx, userId);
    const values = {
      name: firstName(customer.name),
      business: owner.businessName,
      time: textTime(opening.startsAt, owner.timeZone),
    };
    if (!won) {
      await tx
        .update(customers)
        .set({ status: 'waiting', updatedAt: now })
        .where(
          and(
            eq(customers.id, customer.id),
            eq(customers.status, 'offered'),
            sql`not exists (select 1 from offers o join openings op on op.id = o.opening_id where o.customer_id = ${customer.id} and op.status = 'open' and o.sent_at is not null)`,
          ),
        );
      await enqueueSms(tx, {
        userId,
        customerId: customer.id,
        to: customer.phone,
        body: renderTemplate(templates.already_filled.body, values),
        now,
      });
      kick();
      return;
    }
    await tx.update(customers).set({ status: 'booked', updatedAt: now }).where(eq(customers.id, customer.id));
    await tx
      .update(offers)
      .set({ status: 'won' })
      .where(and(eq(offers.openingId, opening.id), eq(offers.customerId, customer.id)));
    await repo.settleOffers(tx, opening.id);
    await repo.releaseOffered(tx, opening.id);
    await enqueueSms(tx, {
      userId,
      customerId: customer.id,
      to: customer.phone,
      body: renderTemplate(templates.claimed.body, values),
      now,
    });
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
    kick();
  };

  return {
    onCustomerReply,

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
        const owner = await lockUser(tx, user.id);
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
        const candidates = await tx
          .select()
          .from(customers)
          .where(
            and(
              eq(customers.userId, owner.id),
              inArray(customers.status, ['waiting', 'offered']),
              eq(customers.optedOut, false),
            ),
          )
          .orderBy(asc(customers.position), asc(customers.createdAt));
        const eligible = candidates.filter((c) => fitsPreferences(c.preferences, startsAt, owner.timeZone));
        if (eligible.length === 0) throw new BadRequest(waitlistMessages.noEligibleCustomers);
        const waves = input.mode === 'waves';
        const waveSize = waves ? (input.waveSize ?? 1) : null;
        const [opening] = await tx
          .insert(openings)
          .values({
            userId: owner.id,
            startsAt,
            durationMinutes: input.durationMinutes,
            service: input.service,
            priceCents: input.priceCents ?? null,
            mode: waves ? 'waves' : 'all',
            waveSize,
            claimWindowMinutes: waves ? (input.claimWindowMinutes ?? 10) : null,
            localDate: today,
            createdAt: now,
          })
          .returning();
        await tx.insert(offers).values(
          eligible.map((customer, index) => ({
            openingId: opening!.id,
            customerId: customer.id,
            wave: waveSize ? Math.floor(index / waveSize) + 1 : 1,
          })),
        );
        await sendWave(tx, opening!, owner, 1, now);
        return opening!.id;
      });
      kick();
      return detail(user.id, id);
    },

    async close(user: UserRow, id: string) {
      const opening = await repo.findOpening(db, user.id, id);
      if (!opening) throw new NotFound(waitlistMessages.openingNotFound);
      const closed = await db.transaction((tx) => finish(tx, eq(openings.id, id), 'closed'));
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
      const expired = await db.transaction((tx) => finish(tx, lte(openings.startsAt, now), 'expired'));
      let wavesSent = 0;
      const due = await db
        .select({ id: openings.id })
        .from(openings)
        .where(and(eq(openings.status, 'open'), lte(openings.nextWaveAt, now)))
        .orderBy(asc(openings.nextWaveAt))
        .limit(100);
      for (const { id } of due) {
        try {
          await db.transaction(async (tx) => {
            const [opening] = await tx
              .select()
              .from(openings)
              .where(and(eq(openings.id, id), eq(openings.status, 'open'), lte(openings.nextWaveAt, now)))
              .for('update', { skipLocked: true });
            if (!opening) return;
            const [owner] = await tx.select().from(users).where(eq(users.id, opening.userId));
            if (!owner) return;
            const [last] = await tx
              .select({ wave: sql<number>`coalesce(max(${offers.wave}), 0)::int` })
              .from(offers)
              .where(and(eq(offers.openingId, id), isNotNull(offers.sentAt)));
            if (await sendWave(tx, opening, owner, (last?.wave ?? 0) + 1, now)) wavesSent += 1;
          });
        } catch (error) {
          deps.logger.error({ err: withoutQueryValues(error), openingId: id }, 'next wave failed');
        }
      }
      if (wavesSent) kick();
      return { expired, wavesSent };
    },

    alertsToday,
  };
}
