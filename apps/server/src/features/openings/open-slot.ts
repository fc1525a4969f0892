import { alertsPerDay, type CreateOpeningBody, waitlistMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import { BadRequest, Forbidden, NotFound } from '../../lib/errors.ts';
import { formatLocal, localDate, nextLocalMidnight, parseStartsAt } from '../../lib/time-zone.ts';
import { chooseOffers, sendingPlan, unclaimedNoticeAt } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import { sendWave } from './waves.ts';

/**
 * Opens a slot in the caller's transaction, under the owner's row lock: checked (billing standing, a start
 * in the future, the plan's alerts a day), the offers chosen by the offer policy, the first wave texted.
 * Answers the new opening's id.
 */
export async function openSlot(
  deps: Pick<OpeningsDeps, 'users' | 'readOnlyReason' | 'customers' | 'enqueueSmsMany'>,
  tx: Executor,
  userId: string,
  input: CreateOpeningBody,
  now: Date,
): Promise<string> {
  const owner = await deps.users.lockUser(tx, userId);
  if (!owner) throw new NotFound(waitlistMessages.openingNotFound);
  const reason = deps.readOnlyReason(owner, now);
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
  const plan = sendingPlan(input);
  const chosen = chooseOffers(await deps.customers.alertCandidates(tx, owner.id), {
    startsAt,
    timeZone: owner.timeZone,
    plan,
  });
  if (chosen.length === 0) throw new BadRequest(waitlistMessages.noEligibleCustomers);
  const opening = await repo.insertOpening(tx, {
    userId: owner.id,
    startsAt,
    durationMinutes: input.durationMinutes,
    service: input.service ?? '',
    priceCents: input.priceCents ?? null,
    ...plan,
    unclaimedNoticeAt: unclaimedNoticeAt(plan, now),
    localDate: today,
    createdAt: now,
  });
  await repo.insertOffers(
    tx,
    chosen.map(({ customer, wave }) => ({ openingId: opening.id, customerId: customer.id, wave })),
  );
  await sendWave(deps, tx, { opening, owner, firstWave: 1, now });
  return opening.id;
}
