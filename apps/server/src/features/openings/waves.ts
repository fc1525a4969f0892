import { formatSlotTime, pushMessages, renderTemplate } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { firstName } from '../../lib/format.ts';
import { pushTime } from './claims.ts';
import { nextWaveAt, stillOfferable } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';

/**
 * Texts wave `firstWave` of an opening (the caller holds the opening's row lock). Customers who since opted
 * out, were removed or booked are skipped (the offer policy's stillOfferable); a wave left empty moves on to
 * the next. Returns the wave sent, or 0.
 */
export async function sendWave(
  deps: Pick<OpeningsDeps, 'customers' | 'enqueueSmsMany'>,
  tx: Executor,
  input: { opening: repo.OpeningRow; owner: UserRow; firstWave: number; now: Date },
): Promise<number> {
  const { opening, owner, now } = input;
  const templates = await deps.customers.templatesOf(tx, owner.id);
  const time = formatSlotTime(opening.startsAt, owner.timeZone);
  for (let wave = input.firstWave; ; wave += 1) {
    const due = await repo.pendingOffersOfWave(tx, opening.id, wave);
    if (due.length === 0) {
      if (!(await repo.hasLaterPendingWave(tx, opening.id, wave))) {
        await repo.setNextWaveAt(tx, opening.id, null);
        return 0;
      }
      continue;
    }
    const customersDue = due.map(({ customer }) => customer);
    const eligible = customersDue.filter(stillOfferable);
    const skipped = customersDue
      .filter((customer) => !stillOfferable(customer))
      .map((customer) => customer.id);
    await repo.setOfferStatus(tx, opening.id, skipped, { status: 'skipped' });
    // The wave's texts, offers and customers in a handful of statements, whatever its size (issue 16).
    await deps.enqueueSmsMany(
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
    await deps.customers.setCustomerStatus(tx, texted, 'offered', now);
    if (texted.length === 0) continue;
    const later = await repo.hasLaterPendingWave(tx, opening.id, wave);
    await repo.setNextWaveAt(tx, opening.id, nextWaveAt(opening, later, now));
    return wave;
  }
}

/**
 * "Nobody has claimed your slot yet": one push per alert, when its first claim window (waves) or
 * UNCLAIMED_NOTICE_MINUTES (all at once) passed and the slot is still open (decision 0009).
 */
export async function notifyUnclaimed(
  deps: Pick<OpeningsDeps, 'db' | 'users' | 'notifyOwner'>,
  now: Date,
): Promise<number> {
  const notify = deps.notifyOwner;
  if (!notify) return 0;
  return deps.db.transaction(async (tx) => {
    let queued = 0;
    for (const opening of await repo.takeDueUnclaimedNotices(tx, now)) {
      const owner = await deps.users.findUserById(tx, opening.userId);
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
