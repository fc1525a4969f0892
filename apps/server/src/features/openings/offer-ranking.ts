/**
 * The automatic order (issue 26), pure: each customer's chance of claiming, learned from this business's own
 * history, and the order the policy asks them in.
 *
 * The chance is Bayesian. The business's claim rate (its claims over its offers, shrunk towards 10%, the share
 * of offers accepted in Epic's published Fast Pass figures) is every customer's prior, worth a few offers; a
 * customer's own offers and claims move it (Beta–binomial). The lead time and the hour of the alert scale it
 * by how this business's customers answer at that lead and hour, each shrunk towards 1 the same way.
 *
 * The order is by an optimistic score (Bayes-UCB: the mean plus one standard deviation of the posterior), so
 * a customer with no history is asked ahead of customers known to ignore offers and behind those known to
 * take them, and learning goes on instead of starving newcomers; those who answer within the claim window
 * move up; the longest waiting and those not offered lately move up; a VIP weighs half as much again; pinned
 * customers come first, in waitlist order.
 */

export interface OfferStats {
  offers: number;
  claims: number;
}

export interface CustomerHistory extends OfferStats {
  /** Median minutes from an alert to this customer's claim; null: never claimed. */
  replyMinutes: number | null;
  lastOfferedAt: Date | null;
  /** Slots they won and then texted they could not come to; counted as offers, never as claims (issue 39). */
  backedOut?: number;
  /** Slots they won that the owner released ("winner can't come"); offers, never claims. */
  released?: number;
}

export const leadBuckets = ['under2h', 'sameDay', 'later'] as const;
export type LeadBucket = (typeof leadBuckets)[number];
export const hourBuckets = ['morning', 'afternoon', 'evening'] as const;
export type HourBucket = (typeof hourBuckets)[number];

export interface BusinessHistory extends OfferStats {
  byLead: Record<LeadBucket, OfferStats>;
  byHour: Record<HourBucket, OfferStats>;
}

export const leadBucket = (minutes: number): LeadBucket =>
  minutes < 120 ? 'under2h' : minutes < 24 * 60 ? 'sameDay' : 'later';
export const hourBucket = (hour: number): HourBucket =>
  hour < 12 ? 'morning' : hour < 17 ? 'afternoon' : 'evening';

export const emptyStats = (): OfferStats => ({ offers: 0, claims: 0 });
export const emptyBusinessHistory = (): BusinessHistory => ({
  ...emptyStats(),
  byLead: { under2h: emptyStats(), sameDay: emptyStats(), later: emptyStats() },
  byHour: { morning: emptyStats(), afternoon: emptyStats(), evening: emptyStats() },
});

/** The prior claim rate before a business has history (Epic Fast Pass: 8.3–11% of offers accepted). */
export const PRIOR_RATE = 0.1;
/** How many offers the business prior is worth against the business's own history. */
const BUSINESS_PRIOR_WEIGHT = 20;
/** How many offers the business's rate is worth against one customer's history. */
const CUSTOMER_PRIOR_WEIGHT = 4;
/** How many offers the business's rate is worth against one lead-time or hour bucket. */
const CONTEXT_PRIOR_WEIGHT = 20;
const DAY_MS = 86_400_000;

/** The business's claim rate, shrunk towards the prior. */
export function businessRate(history: OfferStats): number {
  return (history.claims + PRIOR_RATE * BUSINESS_PRIOR_WEIGHT) / (history.offers + BUSINESS_PRIOR_WEIGHT);
}

/** How much more (or less) likely a claim is in this bucket than over all of the business's offers. */
function contextFactor(bucket: OfferStats, rate: number): number {
  const bucketRate = (bucket.claims + rate * CONTEXT_PRIOR_WEIGHT) / (bucket.offers + CONTEXT_PRIOR_WEIGHT);
  return bucketRate / rate;
}

export interface ClaimChance {
  /** The posterior mean, in this context: what the plan expects. */
  mean: number;
  /** The posterior standard deviation, same scale. */
  sd: number;
}

/** A customer's chance of claiming an alert sent `leadMinutes` before the slot at local `hour`. */
export function claimChance(
  customer: OfferStats | undefined,
  business: BusinessHistory,
  context: { leadMinutes: number; hour: number },
): ClaimChance {
  const rate = businessRate(business);
  const offers = customer?.offers ?? 0;
  const claims = Math.min(customer?.claims ?? 0, offers);
  const alpha = rate * CUSTOMER_PRIOR_WEIGHT + claims;
  const beta = (1 - rate) * CUSTOMER_PRIOR_WEIGHT + (offers - claims);
  const mean = alpha / (alpha + beta);
  const sd = Math.sqrt((alpha * beta) / ((alpha + beta) ** 2 * (alpha + beta + 1)));
  const factor =
    contextFactor(business.byLead[leadBucket(context.leadMinutes)], rate) *
    contextFactor(business.byHour[hourBucket(context.hour)], rate);
  const clamp = (value: number) => Math.min(0.95, Math.max(0.001, value));
  return { mean: clamp(mean * factor), sd: sd * factor };
}

/** One customer as the order sees them. */
export interface RankInput {
  id: string;
  position: number;
  createdAt: Date;
  vip: boolean;
  pinned: boolean;
  history: CustomerHistory | undefined;
}

export interface Ranked<T extends RankInput> {
  customer: T;
  rank: number;
  chance: ClaimChance;
  score: number;
  reason: string;
}

/** The longest waiting move up (at most ×1.3), and those not offered lately (at most ×2, after a week). */
function fairness(
  customer: RankInput,
  now: Date,
): { factor: number; waitedDays: number; sinceOffer: number } {
  const waitedDays = Math.max(0, (now.getTime() - customer.createdAt.getTime()) / DAY_MS);
  const last = customer.history?.lastOfferedAt;
  const sinceOffer = last ? Math.max(0, (now.getTime() - last.getTime()) / DAY_MS) : waitedDays;
  const factor = 1 + (0.3 * Math.min(waitedDays, 30)) / 30 + (1 * Math.min(sinceOffer, 7)) / 7;
  return { factor, waitedDays, sinceOffer };
}

const VIP_FACTOR = 1.5;

/** "1st", "2nd", "3rd", "11th", "22nd". */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** "once", "twice", "3 times". */
const timesWord = (count: number) => (count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`);

/** Why a customer is where they are, in the owner's words: "2nd: claimed 3 of 4 offers, replies in ~4 min". */
function reasonOf(customer: RankInput, rank: number, waitedDays: number, sinceOffer: number): string {
  const parts: string[] = [];
  if (customer.pinned) parts.push('pinned first');
  if (customer.vip) parts.push('VIP');
  const history = customer.history;
  if (!history || history.offers === 0) parts.push('new: no offers yet');
  else {
    const offers = `${history.offers} offer${history.offers === 1 ? '' : 's'}`;
    const backedOut = history.backedOut ?? 0;
    const released = history.released ?? 0;
    if (history.claims > 0 || backedOut + released === 0)
      parts.push(`claimed ${history.claims} of ${offers}`);
    if (backedOut > 0) parts.push(`backed out of ${backedOut} of ${offers}`);
    if (released > 0) parts.push(`released by you ${timesWord(released)}`);
    if (history.replyMinutes !== null)
      parts.push(`replies in ~${Math.max(1, Math.round(history.replyMinutes))} min`);
  }
  if (waitedDays >= 7 && sinceOffer >= 7) {
    parts.push(`waiting ${Math.floor(waitedDays)} days, not offered this week`);
  }
  return `${ordinal(rank)}: ${parts.join(', ')}`;
}

/**
 * How quickly a customer answers, against the time a wave gives them to: a customer whose median claim comes
 * within the claim window weighs up to ×1.2, one who takes four times as long ×0.6 (no claims yet: ×1). A
 * slot in 90 minutes (10 minutes to claim) is better asked first of someone who answers in 4 than in 2 hours.
 */
export function speedFactor(history: CustomerHistory | undefined, claimWindowMinutes: number): number {
  const minutes = history?.replyMinutes;
  if (minutes === null || minutes === undefined) return 1;
  return Math.min(1.2, Math.max(0.6, Math.sqrt(claimWindowMinutes / Math.max(1, minutes))));
}

/** The automatic order: pinned first (waitlist order), then by optimistic score, ties by waitlist order. */
export function rankCustomers<T extends RankInput>(
  customers: readonly T[],
  business: BusinessHistory,
  context: { leadMinutes: number; hour: number; now: Date; claimWindowMinutes: number },
): Ranked<T>[] {
  const scored = customers.map((customer) => {
    const chance = claimChance(customer.history, business, context);
    const fair = fairness(customer, context.now);
    const speed = speedFactor(customer.history, context.claimWindowMinutes);
    const score = (chance.mean + chance.sd) * fair.factor * speed * (customer.vip ? VIP_FACTOR : 1);
    return { customer, chance, score, fair };
  });
  scored.sort(
    (a, b) =>
      Number(b.customer.pinned) - Number(a.customer.pinned) ||
      (a.customer.pinned && b.customer.pinned ? 0 : b.score - a.score) ||
      a.customer.position - b.customer.position ||
      a.customer.createdAt.getTime() - b.customer.createdAt.getTime(),
  );
  return scored.map(({ customer, chance, score, fair }, index) => ({
    customer,
    rank: index + 1,
    chance,
    score,
    reason: reasonOf(customer, index + 1, fair.waitedDays, fair.sinceOffer),
  }));
}

/** List order (the owner's manual modes): position, then who joined first; chances still estimated. */
export function listOrder<T extends RankInput>(
  customers: readonly T[],
  business: BusinessHistory,
  context: { leadMinutes: number; hour: number; now: Date },
): Ranked<T>[] {
  const sorted = [...customers].sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      a.position - b.position ||
      a.createdAt.getTime() - b.createdAt.getTime(),
  );
  return sorted.map((customer, index) => ({
    customer,
    rank: index + 1,
    chance: claimChance(customer.history, business, context),
    score: 0,
    reason: `${ordinal(index + 1)}: ${customer.pinned ? 'pinned first' : 'waitlist order'}`,
  }));
}
