import type { CreateOpeningBody, TimePreference } from '@waitlist/contract';
import type { CustomerRow } from '../../db/rows.ts';
import { localTime, wallClock } from '../../lib/time-zone.ts';

/**
 * The offer policy (decision 0013): who is offered a slot, in what order, and when each wave goes. One pure
 * module, no I/O; openings.service.ts and waves.ts act on what it returns. Issue 26 extends it (services and
 * staff, quiet hours, daily caps, learned order).
 */

/** An all-at-once alert still open this long after it went out: the owner's phone is told (issue 14). */
export const UNCLAIMED_NOTICE_MINUTES = 15;
/** The claim window of a wave when the owner gives none. */
export const DEFAULT_CLAIM_WINDOW_MINUTES = 10;

/** A customer without preferences fits any time; otherwise one window must hold the start (day and HH:MM). */
export function fitsPreferences(preferences: TimePreference[], startsAt: Date, timeZone: string): boolean {
  if (!preferences || preferences.length === 0) return true;
  const { weekday } = wallClock(startsAt, timeZone);
  const time = localTime(startsAt, timeZone);
  return preferences.some((p) => p.days.includes(weekday) && p.from <= time && time <= p.to);
}

/** How an opening sends its alerts, from the owner's choice. */
export function sendingPlan(input: Pick<CreateOpeningBody, 'mode' | 'waveSize' | 'claimWindowMinutes'>) {
  const waves = input.mode === 'waves';
  return {
    mode: waves ? ('waves' as const) : ('all' as const),
    waveSize: waves ? (input.waveSize ?? 1) : null,
    claimWindowMinutes: waves ? (input.claimWindowMinutes ?? DEFAULT_CLAIM_WINDOW_MINUTES) : null,
  };
}

export type SendingPlan = ReturnType<typeof sendingPlan>;

/**
 * Who is offered the slot and in which wave: the candidates (waiting or offered elsewhere, opted in) whose
 * time preferences hold the start, in waitlist order (position, then who joined first); all in wave 1, or
 * `waveSize` to a wave.
 */
export function chooseOffers(
  candidates: CustomerRow[],
  slot: { startsAt: Date; timeZone: string; plan: SendingPlan },
): { customer: CustomerRow; wave: number }[] {
  const { waveSize } = slot.plan;
  return candidates
    .filter((customer) => fitsPreferences(customer.preferences, slot.startsAt, slot.timeZone))
    .sort((a, b) => a.position - b.position || a.createdAt.getTime() - b.createdAt.getTime())
    .map((customer, index) => ({ customer, wave: waveSize ? Math.floor(index / waveSize) + 1 : 1 }));
}

/** When the owner's phone hears that nobody has claimed yet: the first claim window, or 15 minutes. */
export function unclaimedNoticeAt(plan: SendingPlan, now: Date): Date {
  const minutes = plan.claimWindowMinutes ?? UNCLAIMED_NOTICE_MINUTES;
  return new Date(now.getTime() + minutes * 60_000);
}

/** When the next wave goes: one claim window after this one, if a later wave waits; else never. */
export function nextWaveAt(
  opening: { mode: 'auto' | 'all' | 'waves'; claimWindowMinutes: number | null },
  laterWaveWaits: boolean,
  now: Date,
): Date | null {
  if (!laterWaveWaits || opening.mode === 'all') return null;
  return new Date(now.getTime() + (opening.claimWindowMinutes ?? 0) * 60_000);
}

/** Whom a wave may still text: a customer since opted out, removed or booked is skipped. */
export const stillOfferable = (customer: CustomerRow) =>
  !customer.optedOut && (customer.status === 'waiting' || customer.status === 'offered');
