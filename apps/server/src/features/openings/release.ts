import {
  businessNameIn,
  customerWords,
  formatSlotTime,
  offerMessages,
  renderTemplate,
  waitlistMessages,
  withReleaseNote,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest, NotFound } from '../../lib/errors.ts';
import { firstName } from '../../lib/format.ts';
import { UNCLAIMED_NOTICE_MINUTES } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import * as release from './release.repo.ts';
import { advanceOpening } from './waves.ts';

/**
 * When the winner backs out (issue 26): the owner releases the claim, or the winner texts that they cannot
 * come. The slot opens again and goes to the next customers in the plan's order (those told it was filled
 * first, then those not asked yet), at once, as the same alert: it does not count again against the plan's
 * alerts a day. The one who backed out is not asked again for it, goes back to waiting, and is texted in
 * their language that the slot is no longer theirs (issue 39), in the same transaction.
 */
export async function releaseClaim(
  deps: ReleaseDeps,
  tx: Executor,
  input: { userId: string; openingId: string; now: Date; note?: string },
): Promise<void> {
  const released = await tryRelease(deps, tx, input);
  if (released === 'not_found') throw new NotFound(waitlistMessages.openingNotFound);
  if (released === 'nothing') throw new BadRequest(offerMessages.nothingToRelease);
}

type ReleaseDeps = Pick<
  OpeningsDeps,
  'users' | 'customers' | 'catalog' | 'enqueueSms' | 'enqueueSmsMany' | 'calendarBookings'
>;

/** The text the owner's release sends the winner, in the winner's language, before the owner's line. */
export function releasedText(
  owner: Pick<UserRow, 'businessName' | 'timeZone'>,
  opening: { startsAt: Date },
  winner: { name: string; language: release.WinnerRow['language'] },
): string {
  const { language } = winner;
  return renderTemplate(
    customerWords(language).texts.released(businessNameIn(owner.businessName, language)),
    {
      name: firstName(winner.name),
      time: formatSlotTime(opening.startsAt, owner.timeZone, language),
    },
  );
}

/** The text a release would send the winner of this opening now, or null when there is nothing to release. */
export async function releaseTextOf(
  executor: Executor,
  owner: Pick<UserRow, 'businessName' | 'timeZone'>,
  opening: { status: string; startsAt: Date; winner: { id: string } | null },
  now: Date,
): Promise<string | null> {
  if (opening.status !== 'filled' || !opening.winner || opening.startsAt.getTime() <= now.getTime())
    return null;
  const winner = await release.winnerOf(executor, opening.winner.id);
  return winner ? releasedText(owner, opening, winner) : null;
}

/**
 * The release itself, decided from the opening's row locked here: only a filled slot still ahead, and (when
 * `winnerId` is given: the winner texted that they cannot come) only by its winner.
 */
export async function tryRelease(
  deps: ReleaseDeps,
  tx: Executor,
  input: { userId: string; openingId: string; now: Date; winnerId?: string; note?: string },
): Promise<'released' | 'not_found' | 'nothing'> {
  const { userId, openingId, now } = input;
  const locked = await release.lockOpening(tx, userId, openingId);
  if (!locked) return 'not_found';
  const winnerId = locked.winnerCustomerId;
  const ahead = locked.startsAt.getTime() > now.getTime();
  if (locked.status !== 'filled' || !winnerId || !ahead || (input.winnerId && input.winnerId !== winnerId)) {
    return 'nothing';
  }
  // The owner's row next (opening, owner, then customers: the order every writer takes), so the texts this
  // release sends are decided one transaction at a time for the business (the daily cap).
  const owner = await deps.users.lockUser(tx, userId);
  const byText = input.winnerId !== undefined;
  // Not a claim in the history the order learns from (issue 39): declined by text, released by the owner.
  await repo.setOfferStatus(tx, openingId, winnerId, { status: byText ? 'declined' : 'released' });
  await deps.customers.setCustomerStatus(tx, winnerId, 'waiting', now);
  const winner = await release.winnerOf(tx, winnerId);
  if (owner && winner && !winner.optedOut) {
    const words = customerWords(winner.language).texts;
    const body = byText
      ? words.backedOut(businessNameIn(owner.businessName, winner.language))
      : withReleaseNote(releasedText(owner, locked, winner), input.note);
    await deps.enqueueSms(tx, {
      userId,
      customerId: winner.id,
      to: winner.phone,
      body,
      language: winner.language,
      now,
    });
  }
  // The booking leaves the business's calendars again (issue 29).
  await deps.calendarBookings?.want(tx, { userId, openingId, wanted: 'removed', now });
  const window = locked.claimWindowMinutes ?? UNCLAIMED_NOTICE_MINUTES;
  const opening = await release.reopen(tx, openingId, new Date(now.getTime() + window * 60_000));
  await release.requeueForRelease(tx, openingId, locked.mode === 'all' ? null : (locked.waveSize ?? 1));
  if (owner) await advanceOpening(deps, tx, { opening, owner, now, force: true });
  return 'released';
}
