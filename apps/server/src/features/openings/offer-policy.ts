import type { LeftOutReason, OpeningMode, TimePreference } from '@waitlist/contract';
import { localTime, wallClock } from '../../lib/time-zone.ts';
import {
  type BusinessHistory,
  type CustomerHistory,
  listOrder,
  type Ranked,
  rankCustomers,
} from './offer-ranking.ts';
import {
  inSendWindow,
  nextWindowOpens,
  type SendDecision,
  type SendRules,
  sendDecision,
} from './send-window.ts';

/**
 * The offer policy (decision 0013, issue 26): who is offered a slot, in what order, in which wave and when.
 * One pure module, no I/O: openings (open-slot.ts, waves.ts) act on what it returns, and the simulator
 * (`npm run simulate`, src/sim/) runs this same module against simulated businesses. Its parts:
 * - who fits: the service fits the slot's length, the staff member matches, the time preferences hold;
 * - when each may be texted: send-window.ts (quiet hours in the customer's time zone, the daily cap);
 * - the order: offer-ranking.ts (learned from the business's history), or waitlist order by hand;
 * - the shape: everyone at once, waves of N every M minutes, or the automatic plan from the lead time.
 */

/** An all-at-once alert still open this long after it went out: the owner's phone is told (issue 14). */
export const UNCLAIMED_NOTICE_MINUTES = 15;
/** The claim window of a wave when the owner gives none (and of an all-at-once alert for quiet hours). */
export const DEFAULT_CLAIM_WINDOW_MINUTES = 10;
/** The automatic plan closes a wave once the chance someone in it claims reaches this. */
export const AUTO_WAVE_TARGET = 0.15;
/** Below this lead time the automatic plan texts everyone at once: there is no time to wait. */
export const AUTO_ALL_AT_ONCE_BELOW_MINUTES = 30;
/** The automatic plan's waves all go out within this share of the lead time. */
export const AUTO_WAVES_WITHIN = 0.75;

/** A customer without preferences fits any time; otherwise one window must hold the start (day and HH:MM). */
export function fitsPreferences(preferences: TimePreference[], startsAt: Date, timeZone: string): boolean {
  if (!preferences || preferences.length === 0) return true;
  const { weekday } = wallClock(startsAt, timeZone);
  const time = localTime(startsAt, timeZone);
  return preferences.some((p) => p.days.includes(weekday) && p.from <= time && time <= p.to);
}

/** A waiting customer as the policy reads them. */
export interface Candidate {
  id: string;
  position: number;
  createdAt: Date;
  preferences: TimePreference[];
  serviceId: string | null;
  staffId: string | null;
  /** Their own time zone; null: the business's. */
  timeZone: string | null;
  vip: boolean;
  pinned: boolean;
}

/** The slot as the policy reads it. */
export interface Slot {
  startsAt: Date;
  durationMinutes: number;
  staffId: string | null;
  /** The business's time zone (preferences are read in it, and the customers without their own). */
  timeZone: string;
}

/**
 * Why a customer does not fit the slot, or null when they do: the service they wait for must fit in its
 * length (any service: fits), the staff member must be theirs or they have no preference (a slot with nobody
 * named fits only those without one), and their time preferences must hold its start.
 */
export function whyNotFit(
  customer: Candidate,
  slot: Slot,
  serviceMinutes: ReadonlyMap<string, number>,
): LeftOutReason | null {
  if (customer.serviceId !== null) {
    const minutes = serviceMinutes.get(customer.serviceId);
    if (minutes !== undefined && minutes > slot.durationMinutes) return 'service';
  }
  if (customer.staffId !== null && customer.staffId !== slot.staffId) return 'staff';
  return fitsPreferences(customer.preferences, slot.startsAt, slot.timeZone) ? null : 'time_preference';
}

/** Whether a customer fits the slot (see whyNotFit). */
export const fitsSlot = (customer: Candidate, slot: Slot, serviceMinutes: ReadonlyMap<string, number>) =>
  whyNotFit(customer, slot, serviceMinutes) === null;

/** The owner's choice on the form: automatic (default), everyone at once, or waves of N every M minutes. */
export interface SendingChoice {
  mode?: OpeningMode;
  waveSize?: number;
  claimWindowMinutes?: number;
}

/** What the opening stores about its shape. */
export interface SendingPlan {
  mode: OpeningMode;
  /** The first wave's size (null: everyone at once). */
  waveSize: number | null;
  claimWindowMinutes: number | null;
}

/** The claim window the policy gives a slot `leadMinutes` ahead: an eighth of the lead, 5 to 60 minutes. */
export function automaticClaimWindow(leadMinutes: number): number {
  const rounded = Math.round(leadMinutes / 8 / 5) * 5;
  return Math.min(60, Math.max(5, rounded));
}

/**
 * The automatic shape: the claim window from the lead time; everyone at once when the slot is too close to
 * wait; else waves, each closed once the chance someone in it claims reaches AUTO_WAVE_TARGET (so a customer
 * likely to claim is asked alone: one at a time), as many as fit in AUTO_WAVES_WITHIN of the lead time, the last
 * taking everyone left.
 */
export function automaticShape(leadMinutes: number, chances: readonly number[]) {
  const claimWindowMinutes = automaticClaimWindow(leadMinutes);
  if (leadMinutes < AUTO_ALL_AT_ONCE_BELOW_MINUTES || chances.length <= 1) {
    return { claimWindowMinutes, waveOf: chances.map(() => 1) };
  }
  const maxWaves = Math.max(1, Math.floor((leadMinutes * AUTO_WAVES_WITHIN) / claimWindowMinutes));
  const waveOf: number[] = [];
  let wave = 1;
  let miss = 1;
  for (const chance of chances) {
    waveOf.push(Math.min(wave, maxWaves));
    miss *= 1 - chance;
    if (1 - miss >= AUTO_WAVE_TARGET) {
      wave += 1;
      miss = 1;
    }
  }
  return { claimWindowMinutes, waveOf };
}

/** Everything the policy reads to plan an opening. */
export interface PlanInput<T extends Candidate> {
  /** Waiting (or offered elsewhere), opted-in customers; the policy keeps those who fit. */
  candidates: readonly T[];
  slot: Slot;
  serviceMinutes: ReadonlyMap<string, number>;
  choice: SendingChoice;
  rules: SendRules;
  business: BusinessHistory;
  histories: ReadonlyMap<string, CustomerHistory>;
  /** Each customer's recent capped texts (offers sent, "it's been filled"), for the daily cap. */
  contacts: ReadonlyMap<string, readonly Date[]>;
  now: Date;
}

export interface PlannedOffer<T extends Candidate> {
  customer: T;
  rank: number;
  wave: number;
  reason: string;
  /** The chance they claim, as the plan expects it. */
  chance: number;
  /** For the first wave: sent now, held for quiet hours, or skipped; later waves decide when they go. */
  decision: SendDecision | null;
}

export interface OfferPlan<T extends Candidate> extends SendingPlan {
  offers: PlannedOffer<T>[];
  /** The waiting customers who do not fit the slot, with why. */
  leftOut: { customer: T; reason: LeftOutReason }[];
  waves: number;
  /** Alerts and "it's been filled" texts the plan expects before a claim. */
  expectedTexts: number;
  /** The chance someone claims. */
  expectedFill: number;
  /** When the first text goes out (null: nobody can be texted). */
  firstTextAt: Date | null;
}

/** The customer's time zone for quiet hours. */
export const zoneOf = (customer: Pick<Candidate, 'timeZone'>, slot: Pick<Slot, 'timeZone'>) =>
  customer.timeZone ?? slot.timeZone;

/** When a wave sent at `now` reaches customers in the business's zone: now, or when quiet hours end. */
function firstSendTime(slot: Slot, rules: SendRules, now: Date): Date {
  return inSendWindow(now, slot.timeZone, rules) ? now : nextWindowOpens(now, slot.timeZone, rules);
}

/**
 * The plan of an opening: who fits, in what order, in which wave, and whether each of the first wave is texted
 * now, held for quiet hours or skipped; with the texts and the fill it expects.
 */
export function planOffers<T extends Candidate>(input: PlanInput<T>): OfferPlan<T> {
  const { slot, rules, now, choice } = input;
  const mode = choice.mode ?? 'auto';
  const fitting: T[] = [];
  const leftOut: OfferPlan<T>['leftOut'] = [];
  for (const customer of input.candidates) {
    const reason = whyNotFit(customer, slot, input.serviceMinutes);
    if (reason) leftOut.push({ customer, reason });
    else fitting.push(customer);
  }
  const sendsAt = firstSendTime(slot, rules, now);
  const leadMinutes = Math.max(0, (slot.startsAt.getTime() - sendsAt.getTime()) / 60_000);
  const claimWindowMinutes =
    mode === 'auto'
      ? automaticClaimWindow(leadMinutes)
      : mode === 'waves'
        ? (choice.claimWindowMinutes ?? DEFAULT_CLAIM_WINDOW_MINUTES)
        : DEFAULT_CLAIM_WINDOW_MINUTES;
  const context = { leadMinutes, hour: wallClock(sendsAt, slot.timeZone).hour, now, claimWindowMinutes };
  const inputs = fitting.map((candidate) => ({
    ...candidate,
    candidate,
    history: input.histories.get(candidate.id),
  }));
  const ranked: Ranked<(typeof inputs)[number]>[] =
    mode === 'auto'
      ? rankCustomers(inputs, input.business, context)
      : listOrder(inputs, input.business, context);
  const windowFor = (minutes: number | null) => minutes ?? DEFAULT_CLAIM_WINDOW_MINUTES;
  const decide = (customer: T, claimWindowMinutes: number) =>
    sendDecision({
      now,
      startsAt: slot.startsAt,
      timeZone: zoneOf(customer, slot),
      rules,
      claimWindowMinutes,
      contacts: input.contacts.get(customer.id) ?? [],
    });
  // Whom the first wave could text at all: a customer skipped now adds nothing to a wave's chance.
  const provisional = ranked.map((r) => decide(r.customer.candidate, windowFor(null)));
  const chances = ranked.map((r, i) => (provisional[i]!.kind === 'skip' ? 0 : r.chance.mean));
  let plan: SendingPlan;
  let waveOf: number[];
  if (mode === 'auto') {
    const shape = automaticShape(leadMinutes, chances);
    waveOf = shape.waveOf;
    const firstWave = waveOf.filter((wave) => wave === 1).length;
    const single = waveOf.every((wave) => wave === 1);
    plan = { mode, waveSize: single ? null : firstWave, claimWindowMinutes: shape.claimWindowMinutes };
  } else if (mode === 'waves') {
    const size = choice.waveSize ?? 1;
    waveOf = ranked.map((_, index) => Math.floor(index / size) + 1);
    plan = {
      mode,
      waveSize: size,
      claimWindowMinutes: choice.claimWindowMinutes ?? DEFAULT_CLAIM_WINDOW_MINUTES,
    };
  } else {
    waveOf = ranked.map(() => 1);
    plan = { mode, waveSize: null, claimWindowMinutes: null };
  }
  const offers = ranked.map((r, index) => {
    const customer = r.customer.candidate;
    const wave = waveOf[index]!;
    return {
      customer,
      rank: r.rank,
      wave,
      reason: r.reason,
      chance: r.chance.mean,
      decision: wave === 1 ? decide(customer, windowFor(plan.claimWindowMinutes)) : null,
    };
  });
  return {
    ...plan,
    offers,
    leftOut,
    ...expectations(offers, chances),
    firstTextAt: firstTextAt(offers, now),
  };
}

function firstTextAt(offers: readonly PlannedOffer<Candidate>[], now: Date): Date | null {
  let first: Date | null = null;
  for (const { decision } of offers) {
    if (!decision || decision.kind === 'skip') continue;
    const at = decision.kind === 'send' ? now : decision.until;
    if (!first || at < first) first = at;
  }
  return first;
}

/**
 * What the plan expects: wave k is reached if nobody in the waves before claimed; a claim in wave k tells
 * everyone texted so far but the winner that it has been filled.
 */
function expectations(offers: readonly PlannedOffer<Candidate>[], chances: readonly number[]) {
  const waves = offers.reduce((max, offer) => Math.max(max, offer.wave), 0);
  let reach = 1;
  let texted = 0;
  let expectedTexts = 0;
  for (let wave = 1; wave <= waves; wave += 1) {
    const members = offers
      .map((offer, i) => ({ offer, chance: chances[i]! }))
      .filter((m) => m.offer.wave === wave);
    const sendable = members.filter((m) => m.chance > 0);
    const claim = 1 - sendable.reduce((miss, m) => miss * (1 - m.chance), 1);
    expectedTexts += reach * sendable.length;
    texted += sendable.length;
    expectedTexts += reach * claim * Math.max(0, texted - 1);
    reach *= 1 - claim;
  }
  return { waves, expectedTexts: Math.round(expectedTexts * 10) / 10, expectedFill: 1 - reach };
}

/** When the owner's phone hears that nobody has claimed yet: the first claim window, or 15 minutes. */
export function unclaimedNoticeAt(plan: SendingPlan, now: Date): Date {
  const minutes = plan.claimWindowMinutes ?? UNCLAIMED_NOTICE_MINUTES;
  return new Date(now.getTime() + minutes * 60_000);
}

/** When the next wave goes: one claim window after this one, if a later wave waits; else never. */
export function nextWaveAt(
  opening: { mode: OpeningMode; claimWindowMinutes: number | null },
  laterWaveWaits: boolean,
  now: Date,
): Date | null {
  if (!laterWaveWaits || opening.mode === 'all') return null;
  return new Date(now.getTime() + (opening.claimWindowMinutes ?? 0) * 60_000);
}

/** Whom a wave may still text: a customer since opted out, removed or booked is skipped. */
export const stillOfferable = (customer: { optedOut: boolean; status: string }) =>
  !customer.optedOut && (customer.status === 'waiting' || customer.status === 'offered');

export type { SendDecision, SendRules } from './send-window.ts';
export { sendDecision } from './send-window.ts';
