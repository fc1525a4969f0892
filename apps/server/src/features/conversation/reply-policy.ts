/**
 * The reply policy (decision 0013): what a customer's text does, decided in one place, with no I/O. Every
 * other part of the conversation acts on what it returns: the inbound transaction (features/conversation/
 * inbound.ts) carries out a decision; the one-statement way (features/messaging/inbound-texts.repo.ts) only
 * reads the verdict this module writes (`verdictOf`), it never decides. A new follow-up is written here once.
 */

import type { ReplyReading } from '@waitlist/contract';

/** How often a customer may get the automatic "the owner will reply" answer (issue 15). */
export const AUTO_ANSWER_EVERY_MS = 24 * 60 * 60 * 1000;

export type CustomerStatus = 'waiting' | 'offered' | 'booked' | 'removed';

/** The alert a reply answers: the customer's open one first, else the one texted last. */
export interface AnsweredOffer {
  openingOpen: boolean;
  /** This customer already won it. */
  won: boolean;
  /** The customer was told the slot was filled. */
  told: boolean;
}

/** What is known when a customer's reply arrives. */
export interface ReplyState {
  customer: { status: CustomerStatus; optedOut: boolean; autoAnsweredAt: Date | null };
  /** The owner's phone hears of replies (web push on). */
  pushEnabled: boolean;
  /** The alert the reply answers, or null when the customer was never texted about a slot. */
  offer: AnsweredOffer | null;
}

/** What a reply does. */
export type ReplyDecision =
  /** Nothing follows (opted out, removed, a YES to a slot already won, decided and told). */
  | { kind: 'nothing' }
  /** STOP, START or HELP: the opt-out is recorded or lifted, and confirmed when it changed. */
  | { kind: 'keyword'; keyword: 'stop' | 'start' | 'help' }
  /** A YES to an open slot: try to win it; if it is lost meanwhile, `lost` says what follows. */
  | { kind: 'claim' }
  /** A YES to a slot already decided: freed (when still held as offered) and told once. */
  | { kind: 'lost'; release: boolean; tell: boolean }
  /** Free text: the owner's phone hears of it, and/or the customer gets the automatic answer. */
  | { kind: 'free_text'; notifyOwner: boolean; autoAnswer: boolean }
  /**
   * The winner of a filled slot says they cannot come (issue 26): the slot goes to the next customer, the
   * customer is told it was let go, the owner's phone hears of it. When the slot cannot be given back (it
   * started, or the owner already released it), `otherwise` is what the text does instead.
   */
  | { kind: 'back_out'; otherwise: FreeTextDecision };

type FreeTextDecision = Extract<ReplyDecision, { kind: 'nothing' | 'free_text' }>;

const autoAnswerDue = (state: ReplyState, now: Date) =>
  state.customer.status !== 'removed' &&
  (state.customer.autoAnsweredAt === null ||
    now.getTime() - state.customer.autoAnsweredAt.getTime() >= AUTO_ANSWER_EVERY_MS);

/** A YES that did not win: the customer is freed when still held as offered, and told once. */
export function lost(status: CustomerStatus, told: boolean): ReplyDecision {
  return { kind: 'lost', release: status === 'offered', tell: !told };
}

/**
 * The decision for a reply (read by the customer-words catalogue: a keyword, a claim or free text). A STOP
 * and a START always count (they change the opt-out); an opted-out customer's other texts are stored only.
 */
export function decideReply(state: ReplyState, reading: ReplyReading, now: Date): ReplyDecision {
  const { customer, offer } = state;
  if (reading.keyword === 'stop' || reading.keyword === 'start') {
    return { kind: 'keyword', keyword: reading.keyword };
  }
  if (customer.optedOut) return { kind: 'nothing' };
  if (reading.keyword === 'help') return { kind: 'keyword', keyword: 'help' };
  if (!reading.claim) {
    const notifyOwner = state.pushEnabled;
    const autoAnswer = autoAnswerDue(state, now);
    const text: FreeTextDecision =
      notifyOwner || autoAnswer ? { kind: 'free_text', notifyOwner, autoAnswer } : { kind: 'nothing' };
    const winner = offer?.won === true && !offer.openingOpen && customer.status === 'booked';
    return reading.backOut && winner ? { kind: 'back_out', otherwise: text } : text;
  }
  if (customer.status === 'removed' || !offer || offer.won) return { kind: 'nothing' };
  if (offer.openingOpen) return { kind: 'claim' };
  const decided = lost(customer.status, offer.told);
  return decided.kind === 'lost' && !decided.release && !decided.tell ? { kind: 'nothing' } : decided;
}

/** Whether a lost claim's decision asks for anything. */
export const changesNothing = (decision: ReplyDecision) => decision.kind === 'nothing';

/**
 * What the next reply of each kind would do, for the one-statement way (decision 0013), derived from
 * `decideReply` itself so the two cannot differ:
 * - `onClaim`: 'quiet' when a YES would change nothing, else 'act' (the transaction's way);
 * - `onText`: 'quiet' (nothing follows), 'answer' (only the automatic answer) or 'act';
 * - `textUntil`: when the free-text verdict stops holding (the automatic answer falls due again).
 * `afterAnswer`: the free-text verdict once the automatic answer was given at `now`.
 */
export interface ReplyVerdict {
  onClaim: 'quiet' | 'act';
  onText: 'quiet' | 'answer' | 'act';
  textUntil: Date | null;
  push: boolean;
}

const CLAIM: ReplyReading = { keyword: null, claim: true };
const TEXT: ReplyReading = { keyword: null, claim: false };

function textVerdict(state: ReplyState, now: Date): Pick<ReplyVerdict, 'onText' | 'textUntil'> {
  const decision = decideReply(state, TEXT, now);
  const answeredAt = state.customer.autoAnsweredAt;
  // A verdict that rests on a recent automatic answer holds until the next one falls due.
  const textUntil =
    answeredAt && state.customer.status !== 'removed' && !state.customer.optedOut
      ? new Date(answeredAt.getTime() + AUTO_ANSWER_EVERY_MS)
      : null;
  if (decision.kind === 'nothing') return { onText: 'quiet', textUntil };
  if (decision.kind === 'free_text' && !decision.notifyOwner) return { onText: 'answer', textUntil: null };
  return { onText: 'act', textUntil: null };
}

export function verdictOf(state: ReplyState, now: Date): ReplyVerdict {
  return {
    onClaim: changesNothing(decideReply(state, CLAIM, now)) ? 'quiet' : 'act',
    ...textVerdict(state, now),
    push: state.pushEnabled,
  };
}

/**
 * The free-text verdict once the automatic answer went out at `now`, for a customer whose verdict was
 * 'answer' (that verdict holds only for one on the waitlist, opted in, whose owner's push is off): the
 * one-statement way writes it with the answer.
 */
export function verdictAfterAnswer(now: Date) {
  const answered: ReplyState = {
    customer: { status: 'waiting', optedOut: false, autoAnsweredAt: now },
    pushEnabled: false,
    offer: null,
  };
  return textVerdict(answered, now);
}

/** Whether a keyword's confirmation is sent: only when it changed something (a second STOP gets nothing). */
export function confirmsKeyword(
  keyword: 'stop' | 'start' | 'help',
  change: { wasOptedOut: boolean; recorded: boolean },
): boolean {
  if (keyword === 'help') return true;
  if (keyword === 'stop') return !change.wasOptedOut || change.recorded;
  return change.wasOptedOut || change.recorded;
}
