import {
  businessNameIn,
  formatSlotTime,
  type Locale,
  pushMessages,
  renderTemplate,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import { firstName } from '../../lib/format.ts';
import { formatLocal, pushTime } from '../../lib/time-zone.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import { recentContacts } from './offer-history.repo.ts';
import { openingFilledEmail } from './openings.emails.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import { capDay, inSendWindow, textsOnDay } from './send-window.ts';

/**
 * Offers and claims (features/openings owns them): the slot a customer's YES answers, the claim itself, and
 * what a lost claim leaves. The conversation (features/conversation) decides, from the reply policy, which of
 * these to call; nothing here decides what a reply means.
 */

/** The alert a reply answers, as the reply policy reads it, and the opening it belongs to. */
export interface ClaimTarget {
  opening: repo.OpeningRow;
  offer: { openingOpen: boolean; won: boolean; told: boolean };
}

/** The customers a won claim told the slot is taken, with the automatic answer's time their rows hold. */
export type ToldOthers = { customerId: string; autoAnsweredAt: Date | null }[];

/** A YES in the inbound transaction: who answered which slot, for which business. */
export interface ClaimInput {
  userId: string;
  business: { named: string; timeZone: string };
  customer: CustomerRow;
  target: ClaimTarget;
  now: Date;
}

type ClaimsDeps = Pick<
  OpeningsDeps,
  | 'users'
  | 'customers'
  | 'catalog'
  | 'enqueueSms'
  | 'enqueueSmsMany'
  | 'notifyOwner'
  | 'publicUrl'
  | 'calendarBookings'
>;

/**
 * Everyone else texted about the slot and not told yet, but those in their quiet hours or at their daily cap
 * (issue 26: an "it's been filled" text is one the customer did not ask for, and counts toward the cap).
 */
async function othersToTell(
  deps: ClaimsDeps,
  tx: Executor,
  input: { opening: repo.OpeningRow; owner: UserRow; winnerId: string; now: Date },
) {
  const { now } = input;
  const rules = await deps.catalog.offerSettingsOf(tx, input.owner.id);
  const others = await repo.offersToTell(tx, input.opening.id, input.winnerId);
  const contacts = await recentContacts(
    tx,
    others.map((other) => other.customerId),
    now,
  );
  return others.filter((other) => {
    const zone = other.timeZone ?? input.owner.timeZone;
    const today = textsOnDay(contacts.get(other.customerId) ?? [], capDay(now, zone), zone);
    return inSendWindow(now, zone, rules) && today < rules.dailyOfferCap;
  });
}

/** The owner hears of a claim: an email and a push to their phone. */
async function tellOwner(
  deps: ClaimsDeps,
  tx: Executor,
  input: { owner: UserRow; opening: repo.OpeningRow; customer: CustomerRow; firstName: string; now: Date },
) {
  const { owner, opening, customer, now } = input;
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
    owner.id,
    {
      title: pushMessages.claimedTitle(input.firstName, pushTime(opening.startsAt, owner.timeZone)),
      body: pushMessages.claimedBody,
      url: '/openings',
    },
    now,
  );
}

/** The template values every claim text shares, the slot time in the customer's language (issue 28). */
const valuesOf = (input: ClaimInput, language: Locale = input.customer.language) => ({
  name: firstName(input.customer.name),
  business: businessNameIn(input.business.named, language),
  time: formatSlotTime(input.target.opening.startsAt, input.business.timeZone, language),
});

export function createClaims(deps: ClaimsDeps) {
  const { customers, users } = deps;

  /** The owner's templates in each language asked for, read once each. */
  const templatesIn = async (tx: Executor, userId: string, languages: Locale[]) => {
    const found = new Map<Locale, Awaited<ReturnType<typeof customers.templatesOf>>>();
    for (const language of new Set(languages))
      found.set(language, await customers.templatesOf(tx, userId, language));
    return (language: Locale) => found.get(language)!;
  };

  /**
   * The winner's side of a claim: booked, their offer won, everyone else who was texted about the slot told
   * it is taken (once; not in their quiet hours or past their daily cap, issue 26), all queued together
   * (issue 16: the race's other replies wait on this transaction), the owner emailed and pushed.
   */
  async function win(tx: Executor, input: ClaimInput): Promise<ToldOthers> {
    const { userId, customer, now } = input;
    const opening = input.target.opening;
    const owner = await users.findUserById(tx, userId);
    if (!owner) return [];
    await customers.setCustomerStatus(tx, customer.id, 'booked', now);
    await repo.setOfferStatus(tx, opening.id, customer.id, { status: 'won', claimedAt: now });
    const others = await othersToTell(deps, tx, { opening, owner, winnerId: customer.id, now });
    await repo.settleOffers(tx, opening.id);
    await customers.releaseOfferedBy(tx, opening.id);
    const values = valuesOf(input);
    // Each customer is told in their own language: the winner "you got it", the others "it's been filled".
    const templates = await templatesIn(tx, userId, [
      customer.language,
      ...others.map((other) => other.language),
    ]);
    await deps.enqueueSmsMany(tx, [
      {
        userId,
        customerId: customer.id,
        to: customer.phone,
        body: renderTemplate(templates(customer.language).claimed.body, values),
        language: customer.language,
        now,
      },
      ...others.map((other) => ({
        userId,
        customerId: other.customerId,
        to: other.phone,
        body: renderTemplate(templates(other.language).already_filled.body, {
          ...valuesOf(input, other.language),
          name: firstName(other.name),
        }),
        language: other.language,
        now,
      })),
    ]);
    await repo.markTold(
      tx,
      opening.id,
      others.map((other) => other.customerId),
      now,
    );
    await tellOwner(deps, tx, { owner, opening, customer, firstName: values.name, now });
    // Booked into the business's calendars by the calendar worker, after this commits (issue 29).
    await deps.calendarBookings?.want(tx, { userId, openingId: opening.id, wanted: 'booked', now });
    return others.map(({ customerId, autoAnsweredAt }) => ({ customerId, autoAnsweredAt }));
  }

  return {
    /** The alert a customer's YES answers: their open one first, else the one texted last. */
    async answeredOffer(tx: Executor, userId: string, customerId: string): Promise<ClaimTarget | undefined> {
      const answered = await repo.openingAnsweredBy(tx, userId, customerId);
      if (!answered) return undefined;
      const { opening, toldAt } = answered;
      return {
        opening,
        offer: {
          openingOpen: opening.status === 'open',
          won: opening.winnerCustomerId === customerId,
          told: toldAt !== null,
        },
      };
    },

    /**
     * The claim: one conditional UPDATE (concurrent YES replies queue on the opening's row lock and re-check
     * it is open, so exactly one wins), then the winner's side. Null: the slot was taken meanwhile; else the
     * customers told it is taken (freed unless another open alert holds them).
     */
    async claim(tx: Executor, input: ClaimInput): Promise<{ told: ToldOthers } | null> {
      const won = await repo.claimOpening(tx, input.target.opening.id, input.customer.id, input.now);
      if (!won) return null;
      return { told: await win(tx, input) };
    },

    /** Whether the customer was told the slot is taken (read again after a lost claim: the winner tells). */
    wasTold: (tx: Executor, target: ClaimTarget, customerId: string) =>
      repo.wasTold(tx, target.opening.id, customerId),

    /**
     * A YES that did not win: the customer freed (back to waiting unless another open alert holds them) and
     * told the slot is taken, once per opening, as the policy decided. Answers the customer's status after.
     */
    async settleLost(
      tx: Executor,
      input: ClaimInput & { release: boolean; tell: boolean },
    ): Promise<CustomerRow['status']> {
      const { userId, customer, now } = input;
      await repo.markClaimed(tx, input.target.opening.id, customer.id, now);
      const status = input.release ? await customers.releaseCustomer(tx, customer.id, now) : customer.status;
      if (!input.tell) return status;
      const templates = await customers.templatesOf(tx, userId, customer.language);
      await deps.enqueueSms(tx, {
        userId,
        customerId: customer.id,
        to: customer.phone,
        body: renderTemplate(templates.already_filled.body, valuesOf(input)),
        language: customer.language,
        now,
      });
      await repo.markTold(tx, input.target.opening.id, [customer.id], now);
      return status;
    },
  };
}
