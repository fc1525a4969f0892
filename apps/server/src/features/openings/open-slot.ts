import {
  alertsPerDay,
  type CreateOpeningBody,
  type OpeningPreview,
  offerMessages,
  waitlistMessages,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import { BadRequest, Forbidden, NotFound } from '../../lib/errors.ts';
import { formatLocal, localDate, nextLocalMidnight, parseStartsAt } from '../../lib/time-zone.ts';
import { businessHistory, customerHistories, recentContacts } from './offer-history.repo.ts';
import { type OfferPlan, planOffers, unclaimedNoticeAt } from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import { advanceOpening } from './waves.ts';

/**
 * Opening a slot (issue 5; issue 26's offer policy): the form's input checked and resolved (its service and
 * staff member), the offer policy's plan over the business's waiting customers and history, then, when the
 * owner confirms, the opening and its offers written and the first wave texted (or held for quiet hours).
 */

type SlotDeps = Pick<
  OpeningsDeps,
  'users' | 'readOnlyReason' | 'senderRefusal' | 'customers' | 'catalog' | 'enqueueSmsMany'
>;

/** The slot the form describes, checked: its start, service and staff member (the owner's own). */
async function resolveSlot(
  deps: SlotDeps,
  tx: Executor,
  owner: UserRow,
  input: CreateOpeningBody,
  now: Date,
) {
  const startsAt = parseStartsAt(input.startsAt, owner.timeZone);
  if (!startsAt) {
    throw new BadRequest(waitlistMessages.invalidStartsAt, { startsAt: waitlistMessages.invalidStartsAt });
  }
  if (startsAt.getTime() <= now.getTime()) {
    throw new BadRequest(waitlistMessages.openingInPast, { startsAt: waitlistMessages.openingInPast });
  }
  const service = input.serviceId ? await deps.catalog.findService(tx, owner.id, input.serviceId) : undefined;
  if (input.serviceId && !service) {
    throw new BadRequest(offerMessages.serviceNotFound, { serviceId: offerMessages.serviceNotFound });
  }
  const staff = input.staffId ? await deps.catalog.findStaff(tx, owner.id, input.staffId) : undefined;
  if (input.staffId && !staff) {
    throw new BadRequest(offerMessages.staffNotFound, { staffId: offerMessages.staffNotFound });
  }
  const slot = {
    startsAt,
    durationMinutes: input.durationMinutes,
    service: input.service?.trim() || service?.name || '',
    serviceId: service?.id ?? null,
    staffId: staff?.id ?? null,
    priceCents: input.priceCents !== undefined ? input.priceCents : (service?.priceCents ?? null),
  };
  return { slot, staffName: staff?.name ?? null };
}

export type ResolvedSlot = Awaited<ReturnType<typeof resolveSlot>>['slot'];

/** The offer policy's plan for the slot, from the business's customers, services, rules and history. */
export async function planFor(
  deps: SlotDeps,
  tx: Executor,
  owner: UserRow,
  input: CreateOpeningBody,
  now: Date,
): Promise<{ slot: ResolvedSlot; staffName: string | null; plan: OfferPlan<CustomerRow> }> {
  const { slot, staffName } = await resolveSlot(deps, tx, owner, input, now);
  const candidates = await deps.customers.alertCandidates(tx, owner.id);
  const ids = candidates.map((customer) => customer.id);
  // One after another: a transaction's statements share one connection, which runs them one at a time
  // anyway (node-postgres queues concurrent ones and warns that version 9 will refuse them).
  const services = await deps.catalog.listServices(tx, owner.id);
  const rules = await deps.catalog.offerSettingsOf(tx, owner.id);
  const business = await businessHistory(tx, owner.id, owner.timeZone, now);
  const histories = await customerHistories(tx, ids, now);
  const contacts = await recentContacts(tx, ids, now);
  const plan = planOffers({
    candidates,
    slot: { ...slot, timeZone: owner.timeZone },
    serviceMinutes: new Map(services.map((service) => [service.id, service.durationMinutes])),
    choice: input,
    rules,
    business,
    histories,
    contacts,
    now,
  });
  return { slot, staffName, plan };
}

/**
 * Opens a slot in the caller's transaction, under the owner's row lock: checked (billing standing, a start
 * in the future, the plan's alerts a day), planned by the offer policy, the first wave texted. Answers the
 * new opening's id.
 */
export async function openSlot(
  deps: SlotDeps,
  tx: Executor,
  userId: string,
  input: CreateOpeningBody,
  now: Date,
): Promise<string> {
  const owner = await deps.users.lockUser(tx, userId);
  if (!owner) throw new NotFound(waitlistMessages.openingNotFound);
  const reason = deps.readOnlyReason(owner, now);
  if (reason) throw new Forbidden(reason);
  // Refused before planning: a text held for quiet hours would otherwise find out only at 8:00.
  const refused = deps.senderRefusal(owner);
  if (refused) throw refused;
  const today = localDate(now, owner.timeZone);
  const limit = alertsPerDay(owner.subscriptionPlan);
  if (limit !== null && (await repo.countAlertsOn(tx, owner.id, today)) >= limit) {
    const resetsAt = formatLocal(nextLocalMidnight(now, owner.timeZone), owner.timeZone);
    throw new Forbidden(waitlistMessages.alertsLimit(owner.subscriptionPlan, limit, resetsAt));
  }
  const { slot, plan } = await planFor(deps, tx, owner, input, now);
  if (plan.offers.length === 0) throw new BadRequest(waitlistMessages.noEligibleCustomers);
  const { mode, waveSize, claimWindowMinutes } = plan;
  const opening = await repo.insertOpening(tx, {
    userId: owner.id,
    ...slot,
    mode,
    waveSize,
    claimWindowMinutes,
    unclaimedNoticeAt: unclaimedNoticeAt(plan, plan.firstTextAt ?? now),
    localDate: today,
    createdAt: now,
  });
  await repo.insertOffers(
    tx,
    plan.offers.map(({ customer, wave, rank, reason }) => ({
      openingId: opening.id,
      customerId: customer.id,
      wave,
      rank,
      reason,
    })),
  );
  await advanceOpening(deps, tx, { opening, owner, now });
  return opening.id;
}

/** The plan as the form's confirm step shows it (POST /openings/preview). */
export function previewOf(
  { plan, slot, staffName }: { plan: OfferPlan<CustomerRow>; slot: ResolvedSlot; staffName: string | null },
  now: Date,
  /** The business's: a customer without their own is read in it. */
  timeZone: string,
): OpeningPreview {
  const sendAt = (decision: OfferPlan<CustomerRow>['offers'][number]['decision']) => {
    if (decision?.kind === 'send') return now.toISOString();
    return decision?.kind === 'hold' ? decision.until.toISOString() : null;
  };
  return {
    fitting: plan.offers.length,
    mode: plan.mode,
    waveSize: plan.waveSize,
    claimWindowMinutes: plan.claimWindowMinutes,
    waves: plan.waves,
    firstWave: plan.offers.filter((offer) => offer.wave === 1).length,
    expectedTexts: plan.expectedTexts,
    expectedFill: Math.round(plan.expectedFill * 1000) / 1000,
    firstTextAt: plan.firstTextAt?.toISOString() ?? null,
    slot: { service: slot.service, staffName, priceCents: slot.priceCents },
    offers: plan.offers.map(({ customer, rank, wave, reason, decision }) => ({
      customerId: customer.id,
      name: customer.name,
      rank,
      wave,
      reason,
      sendAt: sendAt(decision),
      skipReason: decision?.kind === 'skip' ? decision.reason : null,
      timeZone: customer.timeZone ?? timeZone,
    })),
    leftOut: plan.leftOut.map(({ customer, reason }) => ({
      customerId: customer.id,
      name: customer.name,
      reason,
    })),
  };
}
