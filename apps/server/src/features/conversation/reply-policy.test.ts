import { readReply } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import {
  AUTO_ANSWER_EVERY_MS,
  confirmsKeyword,
  decideReply,
  type ReplyState,
  verdictAfterAnswer,
  verdictOf,
} from './reply-policy.ts';

/**
 * The reply policy as a table (decision 0013): every rule a reply follows is written once, in reply-policy.ts,
 * and these cases are its specification. The one-statement way reads `verdictOf`, derived from the same
 * decisions, so it is tested here too instead of against a second copy of the rules.
 */

const now = new Date('2026-11-24T15:00:00Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);

type Status = ReplyState['customer']['status'];
const state = (
  overrides: {
    status?: Status;
    optedOut?: boolean;
    answeredAt?: Date | null;
    push?: boolean;
    offer?: ReplyState['offer'];
  } = {},
): ReplyState => ({
  customer: {
    status: overrides.status ?? 'offered',
    optedOut: overrides.optedOut ?? false,
    autoAnsweredAt: overrides.answeredAt ?? null,
  },
  pushEnabled: overrides.push ?? false,
  offer: overrides.offer === undefined ? { openingOpen: true, won: false, told: false } : overrides.offer,
});
const decided = (told: boolean) => ({ openingOpen: false, won: false, told });

describe('decideReply', () => {
  it.each([
    // Keywords: STOP and START always count, HELP only for a customer opted in.
    { case: 'STOP', text: 'STOP', given: state(), expected: { kind: 'keyword', keyword: 'stop' } },
    {
      case: 'Stop. from an opted-out customer',
      text: 'Stop.',
      given: state({ optedOut: true }),
      expected: { kind: 'keyword', keyword: 'stop' },
    },
    {
      case: 'START from an opted-out customer',
      text: 'start',
      given: state({ optedOut: true }),
      expected: { kind: 'keyword', keyword: 'start' },
    },
    { case: 'HELP', text: 'HELP', given: state(), expected: { kind: 'keyword', keyword: 'help' } },
    {
      case: 'HELP from an opted-out customer',
      text: 'HELP',
      given: state({ optedOut: true }),
      expected: { kind: 'nothing' },
    },
    // Anything else from an opted-out customer is stored only.
    {
      case: 'YES from an opted-out customer',
      text: 'YES',
      given: state({ optedOut: true }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'free text from an opted-out customer',
      text: 'what time?',
      given: state({ optedOut: true }),
      expected: { kind: 'nothing' },
    },
    // Claims.
    { case: 'YES to an open slot', text: 'Yes please!', given: state(), expected: { kind: 'claim' } },
    {
      case: 'YES with no slot ever offered',
      text: 'yes',
      given: state({ status: 'waiting', offer: null }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'YES from a removed customer',
      text: 'yes',
      given: state({ status: 'removed' }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'YES again from the winner',
      text: 'yes',
      given: state({ status: 'booked', offer: { openingOpen: false, won: true, told: false } }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'YES to a decided slot, still held, not told',
      text: 'yes',
      given: state({ offer: decided(false) }),
      expected: { kind: 'lost', release: true, tell: true },
    },
    {
      case: 'YES to a decided slot, still held, told',
      text: 'yes',
      given: state({ offer: decided(true) }),
      expected: { kind: 'lost', release: true, tell: false },
    },
    {
      case: 'YES to a decided slot, waiting, not told',
      text: 'ok',
      given: state({ status: 'waiting', offer: decided(false) }),
      expected: { kind: 'lost', release: false, tell: true },
    },
    {
      case: 'YES to a decided slot, waiting, told',
      text: 'ok',
      given: state({ status: 'waiting', offer: decided(true) }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'a question is not a claim',
      text: 'yes?',
      given: state({ answeredAt: hoursAgo(1) }),
      expected: { kind: 'nothing' },
    },
    // Free text: the owner's phone (push on) and the automatic answer (once per 24 hours, not when removed).
    {
      case: 'free text, push off, never answered',
      text: 'what time?',
      given: state(),
      expected: { kind: 'free_text', notifyOwner: false, autoAnswer: true },
    },
    {
      case: 'free text, push off, answered 1 h ago',
      text: 'thanks',
      given: state({ answeredAt: hoursAgo(1) }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'free text, push off, answered 24 h ago',
      text: 'thanks',
      given: state({ answeredAt: hoursAgo(24) }),
      expected: { kind: 'free_text', notifyOwner: false, autoAnswer: true },
    },
    {
      case: 'free text, push on, answered 1 h ago',
      text: 'thanks',
      given: state({ push: true, answeredAt: hoursAgo(1) }),
      expected: { kind: 'free_text', notifyOwner: true, autoAnswer: false },
    },
    {
      case: 'free text, push on, never answered',
      text: 'running late',
      given: state({ push: true }),
      expected: { kind: 'free_text', notifyOwner: true, autoAnswer: true },
    },
    {
      case: 'free text from a removed customer, push off',
      text: 'hi',
      given: state({ status: 'removed' }),
      expected: { kind: 'nothing' },
    },
    {
      case: 'free text from a removed customer, push on',
      text: 'hi',
      given: state({ status: 'removed', push: true }),
      expected: { kind: 'free_text', notifyOwner: true, autoAnswer: false },
    },
    {
      case: 'JOIN from a customer is free text',
      text: 'JOIN',
      given: state(),
      expected: { kind: 'free_text', notifyOwner: false, autoAnswer: true },
    },
  ])('$case', ({ text, given, expected }) => {
    expect(decideReply(given, readReply(text), now)).toEqual(expected);
  });
});

describe('verdictOf: what the one-statement way may do with the next reply', () => {
  it.each([
    {
      case: 'offered an open slot: a YES needs the transaction',
      given: state(),
      expected: { onClaim: 'act', onText: 'answer', textUntil: null },
    },
    {
      case: 'told the slot was filled, answered 1 h ago: both quiet until the answer falls due',
      given: state({ status: 'waiting', offer: decided(true), answeredAt: hoursAgo(1) }),
      expected: {
        onClaim: 'quiet',
        onText: 'quiet',
        textUntil: new Date(hoursAgo(1).getTime() + AUTO_ANSWER_EVERY_MS),
      },
    },
    {
      case: 'push on: free text always needs the transaction',
      given: state({ push: true, status: 'waiting', offer: null }),
      expected: { onClaim: 'quiet', onText: 'act', textUntil: null },
    },
    {
      case: 'opted out: everything but STOP and START is quiet, for good',
      given: state({ optedOut: true, answeredAt: hoursAgo(1) }),
      expected: { onClaim: 'quiet', onText: 'quiet', textUntil: null },
    },
    {
      case: 'removed: quiet, for good',
      given: state({ status: 'removed', answeredAt: hoursAgo(1) }),
      expected: { onClaim: 'quiet', onText: 'quiet', textUntil: null },
    },
    {
      case: 'held on a decided slot: a YES frees and tells',
      given: state({ offer: decided(false) }),
      expected: { onClaim: 'act', onText: 'answer', textUntil: null },
    },
  ])('$case', ({ given, expected }) => {
    expect(verdictOf(given, now)).toEqual({ ...expected, push: given.pushEnabled });
  });

  it('agrees with decideReply for every state in the table: quiet only where nothing follows', () => {
    const statuses: Status[] = ['waiting', 'offered', 'booked', 'removed'];
    const offers = [null, { openingOpen: true, won: false, told: false }, decided(false), decided(true)];
    for (const status of statuses)
      for (const optedOut of [false, true])
        for (const push of [false, true])
          for (const answeredAt of [null, hoursAgo(1), hoursAgo(30)])
            for (const offer of offers) {
              const given = state({ status, optedOut, push, answeredAt, offer });
              const verdict = verdictOf(given, now);
              const claim = decideReply(given, readReply('yes'), now);
              const text = decideReply(given, readReply('see you then'), now);
              expect(verdict.onClaim === 'quiet').toBe(claim.kind === 'nothing');
              expect(verdict.onText === 'quiet').toBe(text.kind === 'nothing');
              expect(verdict.onText === 'answer').toBe(text.kind === 'free_text' && !text.notifyOwner);
            }
  });

  it('after the automatic answer, free text is quiet for 24 hours', () => {
    expect(verdictAfterAnswer(now)).toEqual({
      onText: 'quiet',
      textUntil: new Date(now.getTime() + AUTO_ANSWER_EVERY_MS),
    });
  });
});

describe('confirmsKeyword', () => {
  it.each([
    { keyword: 'stop', wasOptedOut: false, recorded: true, confirms: true },
    { keyword: 'stop', wasOptedOut: true, recorded: false, confirms: false },
    { keyword: 'stop', wasOptedOut: true, recorded: true, confirms: true },
    { keyword: 'start', wasOptedOut: true, recorded: true, confirms: true },
    { keyword: 'start', wasOptedOut: false, recorded: false, confirms: false },
    { keyword: 'help', wasOptedOut: false, recorded: false, confirms: true },
  ] as const)('$keyword (opted out before: $wasOptedOut, changed: $recorded) → $confirms', (row) => {
    expect(confirmsKeyword(row.keyword, row)).toBe(row.confirms);
  });
});

describe('a winner backing out (issue 26)', () => {
  const won = { openingOpen: false, won: true, told: false };
  it.each([
    "Sorry, I can't make it",
    'I CANNOT COME anymore 😞',
    "won't make it, sorry",
    'need to cancel my appointment',
  ])('reads "%s" from the winner of a filled slot as backing out', (text) => {
    const decision = decideReply(state({ status: 'booked', offer: won }), readReply(text), now);
    expect(decision).toEqual({
      kind: 'back_out',
      otherwise: { kind: 'free_text', notifyOwner: false, autoAnswer: true },
    });
  });

  it('is free text from anyone but the winner, and never a claim or a keyword', () => {
    const text = readReply("I can't make it");
    expect(text).toMatchObject({ claim: false, keyword: null, backOut: true });
    expect(decideReply(state({ status: 'waiting', offer: decided(true) }), text, now).kind).toBe('free_text');
    expect(decideReply(state({ status: 'booked', offer: won, optedOut: true }), text, now).kind).toBe(
      'nothing',
    );
    expect(readReply('cancel')).toMatchObject({ keyword: 'stop', backOut: false });
    expect(readReply('Yes I can make it')).toMatchObject({ backOut: false });
    expect(readReply('can you come earlier')).toMatchObject({ backOut: false });
  });
});
