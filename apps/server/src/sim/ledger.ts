import {
  type BusinessHistory,
  type CustomerHistory,
  emptyBusinessHistory,
  hourBucket,
  leadBucket,
} from '../features/openings/offer-ranking.ts';
import { wallClock } from '../lib/time-zone.ts';
import { keyedUniform, optOutChance } from './behaviour.ts';
import { BUSINESS_ZONE, type SimCustomer, type World } from './world.ts';

/**
 * What one strategy's run knows and has done: each customer's state and texts, the business's offer history
 * (what the policy learns from, as the product records it), and every text and claim for the report and the
 * invariants.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

export type TextKind = 'alert' | 'filled';

export interface TextRecord {
  customer: number;
  opening: number;
  kind: TextKind;
  at: number;
  /** The customer's time zone (quiet hours and their day for the cap). */
  zone: string;
}

export interface ClaimRecord {
  opening: number;
  customer: number;
  at: number;
  /** The first YES before the slot starts wins; a later YES is answered "sorry, it's taken". */
  won: boolean;
}

export interface CustomerState {
  sim: SimCustomer;
  status: 'waiting' | 'booked' | 'opted_out';
  /** When they were booked or opted out. */
  endedAt: number | null;
  /** Times of their capped texts (alerts and "it's been filled"). */
  contacts: number[];
  offers: number;
  claims: number;
  replyMinutes: number[];
  lastOfferedAt: number | null;
}

/** The context an alert went out in: the business history's buckets a claim of it is counted in. */
export interface AlertContext {
  at: number;
  lead: ReturnType<typeof leadBucket>;
  hour: ReturnType<typeof hourBucket>;
}

const median = (values: readonly number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export class Ledger {
  readonly states: CustomerState[];
  readonly byId = new Map<string, CustomerState>();
  readonly business: BusinessHistory = emptyBusinessHistory();
  readonly texts: TextRecord[] = [];
  readonly claims: ClaimRecord[] = [];
  optOuts = 0;

  constructor(private readonly world: World) {
    this.states = world.customers.map((sim) => ({
      sim,
      status: 'waiting',
      endedAt: null,
      contacts: [],
      offers: 0,
      claims: 0,
      replyMinutes: [],
      lastOfferedAt: null,
    }));
    for (const state of this.states) this.byId.set(state.sim.candidate.id, state);
  }

  /** On the list at `at`: joined, not yet given up, not booked, not opted out. */
  isWaiting(state: CustomerState, at: number): boolean {
    return state.status === 'waiting' && state.sim.joinedAt <= at && at < state.sim.leavesAt;
  }

  /** Was on the list at `at`, whatever became of them since. */
  wasWaiting(state: CustomerState, at: number): boolean {
    const { joinedAt, leavesAt } = state.sim;
    return joinedAt <= at && at < leavesAt && (state.endedAt === null || state.endedAt > at);
  }

  waitingAt(at: number): CustomerState[] {
    return this.states.filter((state) => this.isWaiting(state, at));
  }

  historyOf(state: CustomerState): CustomerHistory {
    return {
      offers: state.offers,
      claims: state.claims,
      replyMinutes: median(state.replyMinutes),
      lastOfferedAt: state.lastOfferedAt === null ? null : new Date(state.lastOfferedAt),
    };
  }

  /** Their capped texts of the last two days: all a cap decision (today, or tomorrow morning) can count. */
  recentContacts(state: CustomerState, at: number): Date[] {
    const since = at - 2 * DAY;
    const recent: Date[] = [];
    for (let i = state.contacts.length - 1; i >= 0 && state.contacts[i]! >= since; i -= 1) {
      recent.push(new Date(state.contacts[i]!));
    }
    return recent;
  }

  /** An alert goes out: the customer's and the business's offer counts, in the alert's lead and hour. */
  alert(state: CustomerState, opening: number, at: number, startsAt: number): AlertContext {
    state.offers += 1;
    state.lastOfferedAt = at;
    const context: AlertContext = {
      at,
      lead: leadBucket((startsAt - at) / MINUTE),
      hour: hourBucket(wallClock(new Date(at), BUSINESS_ZONE).hour),
    };
    this.business.offers += 1;
    this.business.byLead[context.lead].offers += 1;
    this.business.byHour[context.hour].offers += 1;
    this.text(state, opening, 'alert', at);
    return context;
  }

  /** A YES: a claim in the customer's and the business's history, in the buckets of the alert it answers. */
  claim(state: CustomerState, opening: number, at: number, alert: AlertContext, won: boolean): void {
    state.claims += 1;
    state.replyMinutes.push((at - alert.at) / MINUTE);
    this.business.claims += 1;
    this.business.byLead[alert.lead].claims += 1;
    this.business.byHour[alert.hour].claims += 1;
    this.claims.push({ opening, customer: state.sim.index, at, won });
    if (won) {
      state.status = 'booked';
      state.endedAt = at;
    }
  }

  /** A capped text reaches the customer; it may be the one that makes them text STOP. */
  text(state: CustomerState, opening: number, kind: TextKind, at: number): void {
    state.contacts.push(at);
    this.texts.push({ customer: state.sim.index, opening, kind, at, zone: state.sim.zone });
    let lastWeek = 0;
    for (let i = state.contacts.length - 1; i >= 0 && state.contacts[i]! > at - 7 * DAY; i -= 1)
      lastWeek += 1;
    const u = keyedUniform(this.world.options.seed, state.sim.index, state.contacts.length, 7);
    if (u < optOutChance(state.sim.traits, lastWeek)) {
      state.status = 'opted_out';
      state.endedAt = at;
      this.optOuts += 1;
    }
  }
}
