import {
  type Candidate,
  DEFAULT_CLAIM_WINDOW_MINUTES,
  nextWaveAt,
  type OfferPlan,
  planOffers,
  type SendDecision,
  type SendingChoice,
  sendDecision,
} from '../features/openings/offer-policy.ts';
import { capDay, inSendWindow, textsOnDay } from '../features/openings/send-window.ts';
import { wallClock } from '../lib/time-zone.ts';
import { claimProbability, keyedUniform, replyMinutes } from './behaviour.ts';
import { EventQueue } from './event-queue.ts';
import { type AlertContext, type CustomerState, Ledger } from './ledger.ts';
import type { SimOpening, World } from './world.ts';

/**
 * One strategy over the simulated weeks, applying the product's offer policy as the server does: planOffers at
 * open time ranks every fitting customer into waves; wave 1 passes sendDecision at once (sent, held until quiet
 * hours end, or skipped), a held customer is decided again when the hold ends; the next wave goes one claim
 * window after the last texts of the one before, each customer passing sendDecision then; the first YES before
 * the slot starts wins; every other texted customer not yet told gets "it's been filled" at once if it is inside
 * their send window and under their daily cap, otherwise nothing.
 */

const MINUTE = 60_000;

export interface Strategy {
  key: string;
  label: string;
  choice: SendingChoice;
}

/** An opening as one strategy plays it. */
interface OpeningRun {
  opening: SimOpening;
  startsAt: number;
  plan: OfferPlan<Candidate>;
  /** Customers by wave (index 0: wave 1). */
  waves: CustomerState[][];
  alerted: Map<CustomerState, AlertContext>;
  told: Set<CustomerState>;
  filledAt: number | null;
}

type SimEvent =
  | { at: number; kind: 'open'; opening: SimOpening }
  | { at: number; kind: 'wave'; run: OpeningRun; wave: number }
  | { at: number; kind: 'hold'; run: OpeningRun; state: CustomerState }
  | { at: number; kind: 'reply'; run: OpeningRun; state: CustomerState };

export interface OpeningOutcome {
  opening: number;
  openedAt: number;
  startsAt: number;
  fitting: number;
  filledAt: number | null;
  skippedQuietHours: number;
  skippedDailyCap: number;
  /** Customers who fit, were still waiting when it closed (filled or started), and were never texted for it. */
  passedOver: number[];
  /** Customers who fit and were texted for it. */
  alerted: number[];
}

export interface RunResult {
  strategy: Strategy;
  world: World;
  ledger: Ledger;
  outcomes: OpeningOutcome[];
}

/** One strategy's run: the event loop and what each event does. */
class StrategyRun {
  readonly ledger: Ledger;
  readonly outcomes: OpeningOutcome[] = [];
  private readonly queue = new EventQueue<SimEvent>();
  private readonly outcomeOf = new Map<OpeningRun, OpeningOutcome>();
  private readonly runs: OpeningRun[] = [];

  constructor(
    private readonly world: World,
    private readonly strategy: Strategy,
  ) {
    this.ledger = new Ledger(world);
  }

  run(): void {
    const { queue } = this;
    for (const opening of this.world.openings) queue.push({ at: opening.openedAt, kind: 'open', opening });
    for (let event = queue.pop(); event; event = queue.pop()) {
      if (event.kind === 'open') this.open(event.opening, event.at);
      else if (event.kind === 'wave') this.sendWave(event.run, event.wave, event.at);
      else if (event.kind === 'reply') this.reply(event.run, event.state, event.at);
      else this.holdEnds(event.run, event.state, event.at);
    }
    for (const run of this.runs) this.close(run);
  }

  /** Who fit the opening but was never texted for it while still waiting when it closed. */
  private close(run: OpeningRun) {
    const outcome = this.outcomeOf.get(run)!;
    const closedAt = run.filledAt ?? run.startsAt;
    for (const state of run.waves.flat()) {
      if (run.alerted.has(state)) outcome.alerted.push(state.sim.index);
      else if (this.ledger.wasWaiting(state, closedAt)) outcome.passedOver.push(state.sim.index);
    }
  }

  private decide(run: OpeningRun, state: CustomerState, at: number): SendDecision {
    return sendDecision({
      now: new Date(at),
      startsAt: run.opening.slot.startsAt,
      timeZone: state.sim.zone,
      rules: this.world.rules,
      claimWindowMinutes: run.plan.claimWindowMinutes ?? DEFAULT_CLAIM_WINDOW_MINUTES,
      contacts: this.ledger.recentContacts(state, at),
    });
  }

  /** Sends the alert; draws, with the same keyed numbers under every strategy, whether and when they say YES. */
  private sendAlert(run: OpeningRun, state: CustomerState, at: number) {
    const context = this.ledger.alert(state, run.opening.index, at, run.startsAt);
    run.alerted.set(state, context);
    if (state.status !== 'waiting') return; // this text was the one that made them opt out
    const seed = this.world.options.seed;
    const { traits, index } = state.sim;
    const hour = wallClock(new Date(at), state.sim.zone).hour;
    const chance = claimProbability(traits, (run.startsAt - at) / MINUTE, hour);
    if (keyedUniform(seed, index, run.opening.index, 1) >= chance) return;
    const delay = replyMinutes(
      traits,
      keyedUniform(seed, index, run.opening.index, 2),
      keyedUniform(seed, index, run.opening.index, 3),
    );
    const replyAt = at + delay * MINUTE;
    if (replyAt < run.startsAt) this.queue.push({ at: replyAt, kind: 'reply', run, state });
  }

  /** Acts on one decision; answers when this customer's text goes out (null: not at all). */
  private apply(run: OpeningRun, state: CustomerState, decision: SendDecision, at: number): number | null {
    const outcome = this.outcomeOf.get(run)!;
    if (decision.kind === 'send') {
      this.sendAlert(run, state, at);
      return at;
    }
    if (decision.kind === 'hold') {
      this.queue.push({ at: decision.until.getTime(), kind: 'hold', run, state });
      return decision.until.getTime();
    }
    if (decision.reason === 'quiet_hours') outcome.skippedQuietHours += 1;
    else outcome.skippedDailyCap += 1;
    return null;
  }

  /** Sends (or holds) one wave, then schedules the next one claim window after its last text. */
  private sendWave(run: OpeningRun, wave: number, at: number, planned?: (SendDecision | null)[]) {
    if (run.filledAt !== null || at >= run.startsAt) return;
    let lastTextAt: number | null = null;
    run.waves[wave - 1]!.forEach((state, i) => {
      if (!this.ledger.isWaiting(state, at)) return;
      const decision = planned?.[i] ?? this.decide(run, state, at);
      const textAt = this.apply(run, state, decision, at);
      if (textAt !== null) lastTextAt = Math.max(lastTextAt ?? textAt, textAt);
    });
    if (wave >= run.waves.length) return;
    const next = lastTextAt === null ? at : nextWaveAt(run.plan, true, new Date(lastTextAt))?.getTime();
    if (next !== undefined && next < run.startsAt) {
      this.queue.push({ at: next, kind: 'wave', run, wave: wave + 1 });
    }
  }

  /** A held alert's time has come: decided again (sent, or skipped if the day's cap is now reached). */
  private holdEnds(run: OpeningRun, state: CustomerState, at: number) {
    if (run.filledAt !== null || at >= run.startsAt || !this.ledger.isWaiting(state, at)) return;
    this.apply(run, state, this.decide(run, state, at), at);
  }

  private open(opening: SimOpening, at: number) {
    const { ledger, world } = this;
    const waiting = ledger.waitingAt(at);
    const plan = planOffers({
      candidates: waiting.map((state) => state.sim.candidate),
      slot: opening.slot,
      serviceMinutes: world.serviceMinutes,
      choice: this.strategy.choice,
      rules: world.rules,
      business: ledger.business,
      histories: new Map(waiting.map((state) => [state.sim.candidate.id, ledger.historyOf(state)])),
      contacts: new Map(waiting.map((state) => [state.sim.candidate.id, ledger.recentContacts(state, at)])),
      now: new Date(at),
    });
    const run: OpeningRun = {
      opening,
      startsAt: opening.slot.startsAt.getTime(),
      plan,
      waves: Array.from({ length: plan.waves }, () => []),
      alerted: new Map(),
      told: new Set(),
      filledAt: null,
    };
    const firstWave: (SendDecision | null)[] = [];
    for (const offer of plan.offers) {
      run.waves[offer.wave - 1]!.push(ledger.byId.get(offer.customer.id)!);
      if (offer.wave === 1) firstWave.push(offer.decision);
    }
    const outcome: OpeningOutcome = {
      opening: opening.index,
      openedAt: at,
      startsAt: run.startsAt,
      fitting: plan.offers.length,
      filledAt: null,
      skippedQuietHours: 0,
      skippedDailyCap: 0,
      passedOver: [],
      alerted: [],
    };
    this.outcomes.push(outcome);
    this.outcomeOf.set(run, outcome);
    this.runs.push(run);
    if (run.waves.length > 0) this.sendWave(run, 1, at, firstWave);
  }

  /** The first YES before the start wins; every other texted customer not yet told hears it's been filled. */
  private reply(run: OpeningRun, state: CustomerState, at: number) {
    const { ledger, world } = this;
    if (!ledger.isWaiting(state, at) || run.told.has(state)) return;
    const won = run.filledAt === null && at < run.startsAt;
    ledger.claim(state, run.opening.index, at, run.alerted.get(state)!, won);
    if (!won) return;
    run.filledAt = at;
    this.outcomeOf.get(run)!.filledAt = at;
    for (const other of run.alerted.keys()) {
      if (other === state || run.told.has(other) || !ledger.isWaiting(other, at)) continue;
      const zone = other.sim.zone;
      if (!inSendWindow(new Date(at), zone, world.rules)) continue;
      const today = textsOnDay(ledger.recentContacts(other, at), capDay(new Date(at), zone), zone);
      if (today >= world.rules.dailyOfferCap) continue;
      run.told.add(other);
      ledger.text(other, run.opening.index, 'filled', at);
    }
  }
}

/** Plays every opening of the world under one strategy, learning its own history as it goes. */
export function runStrategy(world: World, strategy: Strategy): RunResult {
  const run = new StrategyRun(world, strategy);
  run.run();
  return { strategy, world, ledger: run.ledger, outcomes: run.outcomes };
}
