import { offerMessages, waitlistMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import { BadRequest, NotFound } from '../../lib/errors.ts';
import { UNCLAIMED_NOTICE_MINUTES } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import * as release from './release.repo.ts';
import { advanceOpening } from './waves.ts';

/**
 * When the winner backs out (issue 26): the owner releases the claim. The slot opens again and goes to the
 * next customers in the plan's order (those not asked yet, then those told it was filled), at once, as the
 * same alert: it does not count again against the plan's alerts a day. The one who backed out is not asked
 * again for it and goes back to waiting.
 */
export async function releaseClaim(
  deps: ReleaseDeps,
  tx: Executor,
  input: { userId: string; openingId: string; now: Date },
): Promise<void> {
  const released = await tryRelease(deps, tx, input);
  if (released === 'not_found') throw new NotFound(waitlistMessages.openingNotFound);
  if (released === 'nothing') throw new BadRequest(offerMessages.nothingToRelease);
}

type ReleaseDeps = Pick<
  OpeningsDeps,
  'users' | 'customers' | 'catalog' | 'enqueueSmsMany' | 'calendarBookings'
>;

/**
 * The release itself, decided from the opening's row locked here: only a filled slot still ahead, and (when
 * `winnerId` is given: the winner texted that they cannot come) only by its winner.
 */
export async function tryRelease(
  deps: ReleaseDeps,
  tx: Executor,
  input: { userId: string; openingId: string; now: Date; winnerId?: string },
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
  await repo.setOfferStatus(tx, openingId, winnerId, { status: 'declined' });
  await deps.customers.setCustomerStatus(tx, winnerId, 'waiting', now);
  // The booking leaves the business's calendars again (issue 29).
  await deps.calendarBookings?.want(tx, { userId, openingId, wanted: 'removed', now });
  const window = locked.claimWindowMinutes ?? UNCLAIMED_NOTICE_MINUTES;
  const opening = await release.reopen(tx, openingId, new Date(now.getTime() + window * 60_000));
  await release.requeueForRelease(tx, openingId, locked.mode === 'all' ? null : (locked.waveSize ?? 1));
  if (owner) await advanceOpening(deps, tx, { opening, owner, now, force: true });
  return 'released';
}
