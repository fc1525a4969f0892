/**
 * The simulated customers' hidden habits: how likely each is to claim an alert (by lead time and by the hour it
 * reaches them), how long they take to answer, and how quickly texts wear out their patience. The policy never
 * reads these; it sees only what the engine records (offers, claims, reply times), as the product would.
 */

type Rng = () => number;

/** The median claim chance of a customer who answers at all (calibrated: simulate.ts's accepted %). */
export const MEDIAN_CLAIM_CHANCE = 0.35;
/** The share of customers who never answer an alert. */
export const NEVER_ANSWER_SHARE = 0.15;
/** The chance a text makes a customer of average sensitivity text STOP, per text they got in the last 7 days. */
export const OPT_OUT_PER_RECENT_TEXT = 0.0006;

/** Whether they like short notice (retired, flexible), need notice (work shifts, childcare), or either. */
export type LeadTaste = 'short-notice' | 'planner' | 'any';
/** When in their day an alert is welcome. */
export type HourTaste = 'morning' | 'midday' | 'evening' | 'any';

export interface CustomerTraits {
  /** Their claim chance before lead time and hour (0: never answers). */
  base: number;
  leadTaste: LeadTaste;
  hourTaste: HourTaste;
  /** Their typical minutes from alert to answer. */
  replyMedianMinutes: number;
  /** How much more (or less) than average texts annoy them. */
  optOutSensitivity: number;
}

/** A standard normal draw (Box–Muller). */
export function normal(rng: Rng): number {
  const u = 1 - rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

export function drawTraits(rng: Rng): CustomerTraits {
  const answers = rng() >= NEVER_ANSWER_SHARE;
  const leadRoll = rng();
  const hourRoll = rng();
  return {
    base: answers ? Math.min(0.8, MEDIAN_CLAIM_CHANCE * Math.exp(0.8 * normal(rng))) : 0,
    leadTaste: leadRoll < 0.3 ? 'short-notice' : leadRoll < 0.6 ? 'planner' : 'any',
    hourTaste: hourRoll < 0.2 ? 'morning' : hourRoll < 0.4 ? 'midday' : hourRoll < 0.65 ? 'evening' : 'any',
    // 3 to 90 minutes, log-uniform: some answer at once, some at their lunch break.
    replyMedianMinutes: Math.exp(Math.log(3) + rng() * Math.log(30)),
    optOutSensitivity: Math.exp(0.7 * normal(rng) - 0.245),
  };
}

/** How lead time scales a customer's claim chance (smooth in the log of the lead; not the policy's buckets). */
function leadFactor(taste: LeadTaste, leadMinutes: number): number {
  // 0 at 30 minutes, 1 at three days.
  const x = Math.min(1, Math.max(0, Math.log(leadMinutes / 30) / Math.log(144)));
  if (taste === 'short-notice') return 1.5 - 0.9 * x;
  if (taste === 'planner') return 0.25 + 1.25 * x;
  return 0.8 + 0.4 * x;
}

/** How the hour the alert reaches them (their own clock) scales it. */
function hourFactor(taste: HourTaste, hour: number): number {
  if (taste === 'any') return 1;
  const liked = taste === 'morning' ? hour < 11 : taste === 'midday' ? hour >= 11 && hour < 15 : hour >= 17;
  return liked ? 1.5 : 0.75;
}

/** Their hidden chance of claiming an alert sent `leadMinutes` before the slot, at `localHour` their time. */
export function claimProbability(traits: CustomerTraits, leadMinutes: number, localHour: number): number {
  if (traits.base === 0) return 0;
  return Math.min(
    0.9,
    traits.base * leadFactor(traits.leadTaste, leadMinutes) * hourFactor(traits.hourTaste, localHour),
  );
}

/** Minutes from alert to answer: lognormal around their median. */
export function replyMinutes(traits: CustomerTraits, u1: number, u2: number): number {
  const z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
  return Math.max(0.5, traits.replyMedianMinutes * Math.exp(0.8 * z));
}

/** The chance this text makes them opt out, given the texts they got in the last 7 days (this one included). */
export function optOutChance(traits: CustomerTraits, textsLastWeek: number): number {
  return Math.min(0.5, OPT_OUT_PER_RECENT_TEXT * traits.optOutSensitivity * textsLastWeek);
}

/**
 * A uniform number fixed by its keys (seed, customer, opening, purpose): the same customer answers the same
 * alert the same way under every strategy (common random numbers), so the strategies differ by their rules,
 * not by luck.
 */
export function keyedUniform(...keys: number[]): number {
  let h = 0x811c9dc5;
  for (const key of keys) {
    h = Math.imul(h ^ (key | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    h = Math.imul(h, 0x297a2d39);
    h ^= h >>> 15;
  }
  return (h >>> 0) / 4294967296;
}
