import {
  businessNameIn,
  customerWords,
  formatSlotTime,
  type Locale,
  pushMessages,
  renderTemplate,
  UNNAMED_SERVICE,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow, UserRow } from '../../db/rows.ts';
import { firstName } from '../../lib/format.ts';
import { pushTime } from '../../lib/time-zone.ts';
import { recentContacts } from './offer-history.repo.ts';
import {
  DEFAULT_CLAIM_WINDOW_MINUTES,
  type SendRules,
  sendDecision,
  stillOfferable,
  zoneOf,
} from './offer-policy.ts';
import * as repo from './openings.repo.ts';
import type { OpeningsDeps } from './openings.service.ts';
import * as waves from './waves.repo.ts';

/**
 * Sending an opening's alerts as its plan says (issue 26): wave after wave, one claim window apart, each
 * customer texted now, held until quiet hours end in their time zone, or skipped (quiet hours too close to the
 * start, or offered enough today), as the offer policy's sendDecision says. The caller holds the opening's row
 * lock; the opening's `next_wave_at` is when it needs the worker again (the next wave or the first held text).
 */

type WaveDeps = Pick<OpeningsDeps, 'customers' | 'catalog' | 'enqueueSmsMany'>;

interface WaveContext {
  deps: WaveDeps;
  tx: Executor;
  opening: repo.OpeningRow;
  owner: UserRow;
  rules: SendRules;
  now: Date;
}

const MINUTE = 60_000;
const windowOf = (opening: repo.OpeningRow) => opening.claimWindowMinutes ?? DEFAULT_CLAIM_WINDOW_MINUTES;

/**
 * What the alert says the slot is, for each customer: their own service when they wait for another one than
 * the slot's ("… 2:00 PM for your Blowout with Priya", issue 39: that is what they would book), else the
 * owner's service ("3:00 PM (Cut)"); the neutral word of a calendar slot no rule named is left out.
 */
async function slotWords(context: WaveContext, texted: readonly CustomerRow[]) {
  const { deps, tx, opening, owner } = context;
  const others = texted.some((customer) => customer.serviceId && customer.serviceId !== opening.serviceId);
  const services = others
    ? new Map((await deps.catalog.listServices(tx, owner.id)).map((service) => [service.id, service.name]))
    : new Map<string, string>();
  const staff =
    others && opening.staffId ? await deps.catalog.findStaff(tx, owner.id, opening.staffId) : null;
  return (customer: CustomerRow, time: string, language: Locale) => {
    const theirs =
      customer.serviceId !== opening.serviceId ? services.get(customer.serviceId ?? '') : undefined;
    if (theirs) return customerWords(language).slotTime.forYour(time, theirs, staff?.name ?? null);
    return opening.service && opening.service !== UNNAMED_SERVICE ? `${time} (${opening.service})` : time;
  };
}

/** Texts, holds or skips these customers of the opening; answers how many were texted. */
async function offerTo(context: WaveContext, due: CustomerRow[]): Promise<number> {
  const { deps, tx, opening, owner, rules, now } = context;
  if (due.length === 0) return 0;
  const gone = due.filter((customer) => !stillOfferable(customer)).map((customer) => customer.id);
  await repo.setOfferStatus(tx, opening.id, gone, { status: 'skipped' });
  const eligible = due.filter(stillOfferable);
  const contacts = await recentContacts(
    tx,
    eligible.map((customer) => customer.id),
    now,
  );
  const texted: CustomerRow[] = [];
  for (const customer of eligible) {
    const decision = sendDecision({
      now,
      startsAt: opening.startsAt,
      timeZone: zoneOf(customer, owner),
      rules,
      claimWindowMinutes: windowOf(opening),
      contacts: contacts.get(customer.id) ?? [],
    });
    if (decision.kind === 'send') texted.push(customer);
    else if (decision.kind === 'hold') {
      await repo.setOfferStatus(tx, opening.id, customer.id, { status: 'held', sendAt: decision.until });
    } else {
      await repo.setOfferStatus(tx, opening.id, customer.id, {
        status: 'skipped',
        skipReason: decision.reason,
      });
    }
  }
  if (texted.length === 0) return 0;
  const what = await slotWords(context, texted);
  // Each customer's alert in their language (issue 28): the template and the slot time in it.
  const alertOf = new Map<Locale, (customer: CustomerRow) => string>();
  for (const language of new Set(texted.map((customer) => customer.language))) {
    const templates = await deps.customers.templatesOf(tx, owner.id, language);
    const time = formatSlotTime(opening.startsAt, owner.timeZone, language);
    alertOf.set(language, (customer) =>
      renderTemplate(templates.cancellation_alert.body, {
        name: firstName(customer.name),
        business: businessNameIn(owner.businessName, language),
        time: what(customer, time, language),
      }),
    );
  }
  // The wave's texts, offers and customers in a handful of statements, whatever its size (issue 16).
  await deps.enqueueSmsMany(
    tx,
    texted.map((customer) => ({
      userId: owner.id,
      customerId: customer.id,
      openingId: opening.id,
      to: customer.phone,
      body: alertOf.get(customer.language)!(customer),
      language: customer.language,
      now,
    })),
  );
  const ids = texted.map((customer) => customer.id);
  await repo.setOfferStatus(tx, opening.id, ids, { status: 'sent', sentAt: now, sendAt: null });
  await deps.customers.setCustomerStatus(tx, ids, 'offered', now);
  return ids.length;
}

/**
 * Moves an open opening along at `now`: held texts whose quiet hours ended go (or wait again, or are skipped);
 * then, when nothing is held and the wave timer ran out (`next_wave_at`: one claim window after the last
 * texts), or nothing was texted yet, or `force` (the winner backed out), the next pending wave goes, a wave
 * left empty moving on to the one after. Sets when the worker comes back. Answers how many were texted.
 */
export async function advanceOpening(
  deps: WaveDeps,
  tx: Executor,
  input: { opening: repo.OpeningRow; owner: UserRow; now: Date; force?: boolean },
): Promise<number> {
  const { opening, now } = input;
  const rules = await deps.catalog.offerSettingsOf(tx, input.owner.id);
  const context: WaveContext = { deps, tx, rules, ...input };
  let texted = await offerTo(context, await waves.heldOffersDue(tx, opening.id, now));
  let force = input.force ?? false;
  // The wave timer is the opening's next_wave_at; it says nothing once held texts just went (it was their time).
  const timerRan = texted === 0 && opening.nextWaveAt !== null && opening.nextWaveAt <= now;
  for (;;) {
    const wave = await waves.nextPendingWave(tx, opening.id);
    if (wave === null || (await waves.earliestHeld(tx, opening.id))) break;
    const due = force || timerRan || (await waves.lastSentAt(tx, opening.id)) === null;
    if (!due) break;
    const sent = await offerTo(context, await waves.pendingCustomersOfWave(tx, opening.id, wave));
    texted += sent;
    force = sent === 0 && force;
    if (sent > 0) break;
  }
  await repo.setNextWaveAt(tx, opening.id, await wakeAt(tx, opening));
  return texted;
}

/** When the opening needs the worker again: its first held text, else its next wave, else never. */
async function wakeAt(tx: Executor, opening: repo.OpeningRow): Promise<Date | null> {
  const held = await waves.earliestHeld(tx, opening.id);
  if (held) return held;
  if ((await waves.nextPendingWave(tx, opening.id)) === null) return null;
  const lastSent = await waves.lastSentAt(tx, opening.id);
  return lastSent ? new Date(lastSent.getTime() + windowOf(opening) * MINUTE) : null;
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
