import {
  type CalendarDay,
  type CreateOpeningBody,
  calendarMessages as m,
  type OpeningPreview,
  UNNAMED_SERVICE,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequest, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { zonedToUtc } from '../../lib/time-zone.ts';
import type { ProposalRow } from './calendar.repo.ts';
import * as repo from './calendar.repo.ts';
import { holdsWord } from './title-rules.ts';

/** An opening as the day view shows it (features/openings reads them). */
export interface DayOpening {
  id: string;
  startsAt: Date;
  durationMinutes: number;
  service: string;
  status: string;
  claimedBy: string | null;
}

export interface ProposalDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Opening a slot (features/openings): in the caller's transaction, and its preview, nothing written. */
  openings: {
    openIn(tx: Executor, userId: string, input: CreateOpeningBody, now: Date): Promise<string>;
    preview(user: UserRow, input: CreateOpeningBody): Promise<OpeningPreview>;
  };
  /** The business's staff (features/services): one named in an event's title is the slot's stylist. */
  catalog: { listStaff(executor: Executor, userId: string): Promise<{ id: string; name: string }[]> };
  openingsBetween(executor: Executor, userId: string, from: Date, to: Date): Promise<DayOpening[]>;
  onOutboxWrite?: () => void;
}

/**
 * The opening a proposal becomes: its time and length, and the service, staff and price its rules found. It
 * names the owner's own service, else a neutral word, never the event's title: whoever can put an event in
 * the owner's calendar chose that title, and the opening's service is what the customers' texts say (issue
 * 38). The owner still reads the title on the proposal.
 */
const openingOf = (proposal: ProposalRow, staffId: string | null): CreateOpeningBody => ({
  startsAt: proposal.startsAt.toISOString(),
  durationMinutes: proposal.durationMinutes,
  ...(proposal.serviceId ? { serviceId: proposal.serviceId } : { service: UNNAMED_SERVICE }),
  staffId,
  // No price from the rules: the service's own price, as the openings form gives it (issue 39).
  ...(proposal.priceCents !== null ? { priceCents: proposal.priceCents } : {}),
  mode: 'auto',
});

/**
 * The slot's stylist: the one the rules named, else the one staff member of the owner's whose name the title
 * holds as a whole word ("Cut – Jess"), so a customer who asked for Jess is offered it (issue 39). Only the
 * owner's own staff name ever reaches a text, never the title's words (issue 38).
 */
async function staffOf(deps: ProposalDeps, executor: Executor, userId: string, proposal: ProposalRow) {
  if (proposal.staffId) return proposal.staffId;
  const staff = await deps.catalog.listStaff(executor, userId);
  const named = staff.filter((member) => holdsWord(proposal.title, member.name));
  return named.length === 1 ? named[0]!.id : null;
}

/**
 * Runs `act` on the proposal's slot. A service or staff member its rules named that the owner has deleted
 * since is left out (the slot opens for any service, or anyone), rather than the slot refused. Opening and
 * previewing refuse those before they write anything, so trying again in the same transaction is safe.
 */
async function withProposalSlot<T>(
  deps: ProposalDeps,
  executor: Executor,
  userId: string,
  proposal: ProposalRow,
  act: (input: CreateOpeningBody) => Promise<T>,
) {
  let input = openingOf(proposal, await staffOf(deps, executor, userId, proposal));
  for (;;) {
    try {
      return await act(input);
    } catch (error) {
      const fields = error instanceof BadRequest ? (error.errors ?? {}) : {};
      if (input.serviceId && fields.serviceId)
        input = { ...input, serviceId: null, service: UNNAMED_SERVICE };
      else if (input.staffId && fields.staffId) input = { ...input, staffId: null };
      else throw error;
    }
  }
}

const openProposal = (deps: ProposalDeps, tx: Executor, userId: string, proposal: ProposalRow, now: Date) =>
  withProposalSlot(deps, tx, userId, proposal, (input) => deps.openings.openIn(tx, userId, input, now));

/**
 * The cancellations a calendar proposed (issue 29): the owner opens one with a tap or dismisses it; in
 * automatic mode a scheduled one opens by itself when its grace period ends, unless the owner stopped it.
 * Each is decided in one transaction under its row lock, so a tap and the scheduler never both open it.
 */
export type Proposals = ReturnType<typeof createProposals>;

export function createProposals(deps: ProposalDeps) {
  const { db, clock } = deps;

  async function decide(
    user: UserRow,
    id: string,
    act: (tx: Executor, row: ProposalRow) => Promise<ProposalRow>,
  ) {
    const row = await db.transaction(async (tx) => {
      const proposal = await repo.lockWaitingProposal(tx, user.id, id);
      if (!proposal) throw new NotFound(m.proposalNotFound);
      return act(tx, proposal);
    });
    return repo.proposalDto(row);
  }

  return {
    async waiting(user: UserRow) {
      return (await repo.waitingProposals(db, user.id, clock.now())).map(repo.proposalDto);
    },

    /**
     * "Text the waitlist", first step: who the slot's alert would text, as the openings form's preview shows
     * it, with the service, stylist and price it carries; nothing is written or sent (issue 39).
     */
    async preview(user: UserRow, id: string): Promise<OpeningPreview> {
      const proposal = (await repo.waitingProposals(db, user.id, clock.now())).find((row) => row.id === id);
      if (!proposal) throw new NotFound(m.proposalNotFound);
      return withProposalSlot(deps, db, user.id, proposal, (input) => deps.openings.preview(user, input));
    },

    /** "Text the waitlist", confirmed in the preview: the slot opens now, as the openings form would open it. */
    async open(user: UserRow, id: string) {
      const now = clock.now();
      const dto = await decide(user, id, async (tx, proposal) => {
        if (proposal.startsAt <= now) throw new BadRequest(m.proposalStarted);
        const openingId = await openProposal(deps, tx, user.id, proposal, now);
        return repo.setProposal(tx, proposal.id, { status: 'opened', openingId, updatedAt: now });
      });
      deps.onOutboxWrite?.();
      return dto;
    },

    /** "Dismiss" (or "Stop" before an automatic one opens): nothing is sent for it. */
    dismiss(user: UserRow, id: string) {
      const now = clock.now();
      return decide(user, id, (tx, proposal) =>
        repo.setProposal(tx, proposal.id, { status: 'dismissed', opensAt: null, updatedAt: now }),
      );
    },

    /**
     * The scheduler's pass: scheduled proposals whose grace period ended open (SKIP LOCKED: one instance each).
     * One that cannot open (nobody fits, the day's alerts used up) waits for the owner instead; one whose
     * slot has started expires.
     */
    async openDue(limit = 20) {
      const now = clock.now();
      let opened = 0;
      await db.transaction(async (tx) => {
        for (const proposal of await repo.dueScheduledProposals(tx, now, limit)) {
          if (proposal.startsAt <= now) {
            await repo.setProposal(tx, proposal.id, { status: 'expired', updatedAt: now });
            continue;
          }
          try {
            const openingId = await tx.transaction((savepoint) =>
              openProposal(deps, savepoint, proposal.userId, proposal, now),
            );
            await repo.setProposal(tx, proposal.id, { status: 'opened', openingId, updatedAt: now });
            opened += 1;
          } catch (error) {
            if (!(error instanceof AppError)) throw error;
            deps.logger.info(
              { proposalId: proposal.id, reason: error.message },
              'calendar slot left to the owner',
            );
            await repo.setProposal(tx, proposal.id, { status: 'proposed', opensAt: null, updatedAt: now });
          }
        }
      });
      if (opened > 0) deps.onOutboxWrite?.();
      return opened;
    },

    /** The owner's day (or week) from `date`, cut in the business's time zone: calendar events and openings. */
    async day(user: UserRow, date: string, days = 1): Promise<CalendarDay> {
      const [year, month, day] = date.split('-').map(Number) as [number, number, number];
      const check = new Date(Date.UTC(year, month - 1, day));
      if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day)
        throw new BadRequest(m.invalidDate);
      const from = zonedToUtc({ year, month, day }, user.timeZone);
      const to = zonedToUtc({ year, month, day: day + days }, user.timeZone);
      const [events, openings] = await Promise.all([
        repo.eventsBetween(db, user.id, from, to),
        deps.openingsBetween(db, user.id, from, to),
      ]);
      return {
        date,
        days,
        timeZone: user.timeZone,
        events: events.map((event) => ({
          connectionId: event.connectionId,
          title: event.title,
          startsAt: event.startsAt.toISOString(),
          endsAt: event.endsAt.toISOString(),
          ours: event.ours,
        })),
        openings: openings.map((opening) => ({ ...opening, startsAt: opening.startsAt.toISOString() })),
      };
    },
  };
}
