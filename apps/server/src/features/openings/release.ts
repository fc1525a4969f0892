import { offerMessages, waitlistMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import { BadRequest, NotFound } from '../../lib/errors.ts';
import { UNCLAIMED_NOTICE_MINUTES } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import { advanceOpening } from './waves.ts';

/**
 * When the winner backs out (issue 26): the owner releases the claim. The slot opens again and goes to the
 * next customers in the plan's order (those not asked yet, then those told it was filled), at once, as the
 * same alert: it does not count again against the plan's alerts a day. The one who backed out is not asked
 * again for it and goes back to waiting.
 */
export async function releaseClaim(
  deps: Pick<OpeningsDeps, 'users' | 'customers' | 'catalog' | 'enqueueSmsMany'>,
  tx: Executor,
  input: { userId: string; openingId: string; now: Date },
): Promise<void> {
  const { userId, openingId, now } = input;
  const locked = await repo.lockOpening(tx, userId, openingId);
  if (!locked) throw new NotFound(waitlistMessages.openingNotFound);
  const winnerId = locked.winnerCustomerId;
  if (locked.status !== 'filled' || !winnerId || locked.startsAt.getTime() <= now.getTime()) {
    throw new BadRequest(offerMessages.nothingToRelease);
  }
  await repo.setOfferStatus(tx, openingId, winnerId, { status: 'declined' });
  await deps.customers.setCustomerStatus(tx, winnerId, 'waiting', now);
  const window = locked.claimWindowMinutes ?? UNCLAIMED_NOTICE_MINUTES;
  const opening = await repo.reopen(tx, openingId, new Date(now.getTime() + window * 60_000));
  await repo.requeueForRelease(tx, openingId, locked.mode === 'all' ? null : (locked.waveSize ?? 1));
  const owner = await deps.users.findUserById(tx, userId);
  if (!owner) return;
  await advanceOpening(deps, tx, { opening, owner, now, force: true });
}
