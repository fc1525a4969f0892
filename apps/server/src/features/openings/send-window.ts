import type { OfferSettings, SkipReason } from '@waitlist/contract';
import { localDate, localTime, wallClock, zonedToUtc } from '../../lib/time-zone.ts';

/**
 * Quiet hours and the daily cap (issue 26), pure. A text the customer did not just ask for (an alert, "it's
 * been filled") goes out only inside the owner's send window (8:00–20:00 by default, never wider than
 * 8:00–21:00) in the customer's time zone; a customer gets at most `dailyOfferCap` of them in one of their
 * days. Answers to the customer's own text (STOP/HELP confirmations, "you got it", the automatic answer) do
 * not pass through here: they go out at once.
 */

export type SendRules = Pick<OfferSettings, 'sendFrom' | 'sendUntil' | 'dailyOfferCap'>;

/** Whether `instant` is inside the send window in `timeZone` ('HH:MM' compare: from ≤ t < until). */
export function inSendWindow(instant: Date, timeZone: string, rules: SendRules): boolean {
  const time = localTime(instant, timeZone);
  return rules.sendFrom <= time && time < rules.sendUntil;
}

const hm = (value: string) => value.split(':').map(Number) as [number, number];

/**
 * The next time the send window opens at or after `instant` in `timeZone`: today's `sendFrom` when it is still
 * ahead, else tomorrow's. Daylight-saving days are the wall clock's: 8:00 is 8:00 on the day the clocks move.
 */
export function nextWindowOpens(instant: Date, timeZone: string, rules: SendRules): Date {
  const [hour, minute] = hm(rules.sendFrom);
  const w = wallClock(instant, timeZone);
  for (let add = 0; add < 3; add += 1) {
    const day = new Date(Date.UTC(w.year, w.month - 1, w.day + add));
    const opens = zonedToUtc(
      { year: day.getUTCFullYear(), month: day.getUTCMonth() + 1, day: day.getUTCDate(), hour, minute },
      timeZone,
    );
    if (opens.getTime() >= instant.getTime()) return opens;
  }
  return instant;
}

/** When a customer's "day" for the cap began: their local date of the instant (YYYY-MM-DD). */
export const capDay = (instant: Date, timeZone: string) => localDate(instant, timeZone);

/** How many capped texts (offers sent, "it's been filled" texts) a customer got on `day`, their time zone. */
export function textsOnDay(contacts: readonly Date[], day: string, timeZone: string): number {
  let count = 0;
  for (const at of contacts) if (capDay(at, timeZone) === day) count += 1;
  return count;
}

/** What happens to one customer's alert at `now`. */
export type SendDecision =
  | { kind: 'send' }
  | { kind: 'hold'; until: Date }
  | { kind: 'skip'; reason: SkipReason };

/**
 * Whether an alert goes to this customer now: inside the window and under the cap, it goes; in quiet hours it
 * waits for the window to open if the slot still starts more than one claim window after that, otherwise the
 * customer is skipped; at the cap for the day the alert would go out, the customer is skipped.
 */
export function sendDecision(input: {
  now: Date;
  startsAt: Date;
  timeZone: string;
  rules: SendRules;
  claimWindowMinutes: number;
  /** Offers and "it's been filled" texts this customer received (any business day; counted per local day). */
  contacts: readonly Date[];
}): SendDecision {
  const { now, timeZone, rules } = input;
  let at = now;
  if (!inSendWindow(now, timeZone, rules)) {
    at = nextWindowOpens(now, timeZone, rules);
    if (input.startsAt.getTime() - at.getTime() <= input.claimWindowMinutes * 60_000) {
      return { kind: 'skip', reason: 'quiet_hours' };
    }
  }
  if (textsOnDay(input.contacts, capDay(at, timeZone), timeZone) >= rules.dailyOfferCap) {
    return { kind: 'skip', reason: 'daily_cap' };
  }
  return at === now ? { kind: 'send' } : { kind: 'hold', until: at };
}
