import {
  businessNameIn,
  customerWords,
  type Locale,
  pushMessages,
  readLanguageSwitch,
  readReply,
  smsInfo,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { CustomerRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { firstName } from '../../lib/format.ts';
import type { Logger } from '../../lib/logger.ts';
import type { InboundTexts, SignedNonce } from '../messaging/messaging.service.ts';
import type { ClaimTarget, OfferClaims, ToldOthers } from '../openings/openings.service.ts';
import type { NotifyOwner } from '../push/push.service.ts';
import type { StoredReplyVerdict, StrangerText } from '../waitlist/waitlist.service.ts';
import { onBackOut } from './back-out.ts';
import { onLanguageSwitch } from './language-switch.ts';
import {
  confirmsKeyword,
  decideReply,
  lost,
  type ReplyDecision,
  type ReplyState,
  verdictOf,
} from './reply-policy.ts';

/**
 * A customer's text, from the webhook to the commit, in one straight line (decision 0013): read by the
 * customer-words catalogue, stored by messaging (in one statement when the stored verdict says nothing
 * follows), decided by the reply policy, acted on (a claim by openings, a keyword's opt-out by messaging and
 * waitlist, answers queued by messaging), the next verdict written, committed, the outbox woken.
 */

export interface InboundText {
  /** E.164 (or Plivo's digits without '+'). */
  from: string;
  to: string;
  text: string;
  providerMessageId: string;
  /** The webhook's signature nonce, recorded with the text (one statement): used before, nothing is. */
  nonce?: SignedNonce;
}

/** What an inbound text did; joining by text (issue 15) adds join_requested and joined. */
export type InboundAction =
  | 'opted_out'
  | 'opted_in'
  | 'help'
  | 'reply'
  | 'join_requested'
  | 'joined'
  | 'ignored';

export type InboundResult =
  | { outcome: 'duplicate' }
  | { outcome: 'unknown_number' }
  | { outcome: 'received'; messageId: string; action: InboundAction };

/**
 * A text from a number that is not the business's customer (features/waitlist: JOIN, and its YES). A STOP
 * is already recorded as the business's opt-out, and only numbers the business may text (its country, a
 * textable type, issue 24) are passed on. `reply` queues a compliance answer to the number.
 */
export type StrangerHandler = (input: StrangerText) => Promise<InboundAction>;

/** The customers as the conversation changes them (features/waitlist). */
export interface ConversationCustomers {
  setOptedOutByPhone(
    tx: Executor,
    userId: string,
    phone: string,
    optedOut: boolean,
    now: Date,
  ): Promise<unknown>;
  setLanguage(tx: Executor, customerId: string, language: Locale, now: Date): Promise<unknown>;
  takeAutoAnswer(tx: Executor, customerId: string, seen: Date | null, now: Date): Promise<boolean>;
  writeReplyVerdict(
    tx: Executor,
    customerId: string,
    decidedFrom: Pick<CustomerRow, 'status' | 'optedOut' | 'autoAnsweredAt'>,
    verdict: StoredReplyVerdict,
  ): Promise<void>;
  /** writeReplyVerdict for several customers, in one statement. */
  writeReplyVerdicts(
    tx: Executor,
    entries: {
      customerId: string;
      decidedFrom: Pick<CustomerRow, 'status' | 'optedOut' | 'autoAnsweredAt'>;
      verdict: StoredReplyVerdict;
    }[],
  ): Promise<void>;
}

export interface ConversationDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  /** Wakes the outbox worker; called after a commit that queued texts (and only then). */
  onOutboxWrite?: () => void;
  /** Storing the text and queuing answers (features/messaging: transport). */
  texts: InboundTexts;
  /** The slot a YES answers, and the claim (features/openings). */
  claims: OfferClaims;
  customers: ConversationCustomers;
  /** A web push to the owner's devices, in the caller's transaction (features/push). */
  notifyOwner?: NotifyOwner;
  /** JOIN and its YES from numbers that are not customers (features/waitlist). */
  onStranger?: StrangerHandler;
}

const e164 = (number: string) => {
  const trimmed = number.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed.replace(/\D/g, '')}`;
};

export function createConversation(deps: ConversationDeps) {
  const { db, clock, texts } = deps;
  const wakeOutbox = () => deps.onOutboxWrite?.();

  async function receiveInbound(input: InboundText): Promise<InboundResult> {
    const now = clock.now();
    const reading = readReply(input.text);
    const switchTo = readLanguageSwitch(input.text);
    const keyword = reading.keyword === 'join' ? null : reading.keyword;
    const info = smsInfo(input.text);
    const text = {
      eventId: `message:${input.providerMessageId}`,
      from: e164(input.from),
      to: e164(input.to),
      body: input.text,
      segments: Math.max(1, info.segments),
      encoding: info.encoding,
      providerMessageId: input.providerMessageId,
      nonce: input.nonce ?? null,
      now,
    };
    // Most replies change nothing, or ask only the automatic answer: the customer's stored verdict says so,
    // and the text is stored (with its answer) in one statement, without a transaction (issue 16).
    if (keyword === null && !reading.backOut && switchTo === null) {
      const quiet = await texts.recordIfQuiet(text, reading.claim);
      if (quiet.outcome === 'duplicate') return quiet;
      if (quiet.outcome === 'stored') {
        if (quiet.answered) wakeOutbox();
        const action = quiet.customerOptedOut ? 'ignored' : 'reply';
        return { outcome: 'received', messageId: quiet.messageId, action };
      }
    }
    const result = await db.transaction(async (tx): Promise<InboundResult> => {
      const stored = await texts.record(tx, { ...text, read: keyword !== null });
      if (stored.outcome !== 'stored') return { outcome: stored.outcome };
      const { user, customer, messageId } = stored;
      const business = { named: user.businessName, timeZone: user.timeZone };
      const reply: Reply = {
        tx,
        userId: user.id,
        business,
        from: text.from,
        to: text.to,
        body: input.text,
        now,
      };
      if (!customer) {
        const action = await fromStranger(reply, keyword, messageId);
        return { outcome: 'received', messageId, action };
      }
      const offer = await deps.claims.answeredOffer(tx, user.id, customer.id);
      const state: ReplyState = { customer, pushEnabled: user.pushEnabled, offer: offer?.offer ?? null };
      const after = switchTo
        ? await onLanguageSwitch(deps, { ...reply, customer }, state, switchTo)
        : await actOn(deps, { ...reply, customer, target: offer }, state, decideReply(state, reading, now));
      // The YES that won is shown by the opening; any other (late, to a slot already decided) stays unread.
      if (after.offer?.won && !offer?.offer.won) await texts.markRead(tx, messageId, now);
      // The verdict for the customer's next reply, from the state the decision left, written only if the
      // row still holds what it was decided from.
      await deps.customers.writeReplyVerdict(tx, customer.id, after.customer, verdictOf(after, now));
      return { outcome: 'received', messageId, action: after.action };
    });
    // After the commit, so the worker sees what was queued. An ignored text queued nothing.
    if (result.outcome === 'received' && result.action !== 'ignored') wakeOutbox();
    return result;
  }

  /**
   * A text from a number that is not a customer. STOP is recorded as the business's opt-out whoever sends
   * it; START removes one (and is confirmed only then, in English: a stranger has no language, and START is
   * the word in both). A number the business may not text (another country, premium, toll-free…: issue 24)
   * is answered nothing, whatever it says. The rest goes to the stranger handler (joining by text).
   */
  async function fromStranger(
    reply: Reply,
    keyword: 'stop' | 'start' | 'help' | null,
    messageId: string,
  ): Promise<InboundAction> {
    const { tx, userId, from, now } = reply;
    const textable = texts.mayText(from, reply.to);
    const recorded = keyword === 'stop' && (await texts.recordOptOut(tx, userId, from, now));
    const answer = (body: string) => texts.answer(tx, userId, { id: null, phone: from }, body, now);
    if (keyword === 'start') {
      if (!(await texts.removeOptOut(tx, userId, from))) return 'ignored';
      if (textable)
        await answer(customerWords().texts.startConfirmation(businessNameIn(reply.business.named)));
      return 'opted_in';
    }
    if (!textable || !deps.onStranger) return recorded ? 'opted_out' : 'ignored';
    const action = await deps.onStranger({
      tx,
      userId,
      from,
      body: reply.body,
      keyword,
      messageId,
      now,
      reply: answer,
    });
    // A STOP is an opt-out even when no join request was waiting for it.
    return recorded ? 'opted_out' : action;
  }

  return { receiveInbound };
}

export type Conversation = ReturnType<typeof createConversation>;

// ---- acting on the reply policy's decision ----

/** A customer's reply inside the inbound transaction, with what acting on it needs. */
export interface Reply {
  tx: Executor;
  userId: string;
  /** The business's name as the owner wrote it ('' for none: texts say "Your business" in their language), and its time zone. */
  business: { named: string; timeZone: string };
  from: string;
  to: string;
  body: string;
  now: Date;
}

/** What a decision left: the state the next verdict is decided from, and what the text did. */
export type ActedOn = ReplyState & { action: InboundAction };

/**
 * Carries out the reply policy's decision (features/conversation/reply-policy.ts): every branch here acts,
 * none decides. Returns the state it left for the next verdict.
 */
export async function actOn(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow; target: ClaimTarget | undefined },
  state: ReplyState,
  decision: ReplyDecision,
): Promise<ActedOn> {
  const { customer } = reply;
  const left = (action: InboundAction, changes: Partial<ReplyState> = {}): ActedOn => ({
    ...state,
    ...changes,
    action,
  });
  switch (decision.kind) {
    case 'nothing':
      return left('ignored');
    case 'keyword':
      return onKeyword(deps, reply, state, decision.keyword);
    case 'free_text': {
      const answeredAt = await onFreeText(deps, reply, decision);
      return left('reply', { customer: { ...state.customer, autoAnsweredAt: answeredAt } });
    }
    case 'claim': {
      const target = reply.target!;
      const won = await deps.claims.claim(reply.tx, { ...reply, target });
      if (won) {
        await rememberToldOthers(deps, reply, state.pushEnabled, won.told);
        return left('reply', {
          customer: { ...state.customer, status: 'booked' },
          offer: { openingOpen: false, won: true, told: false },
        });
      }
      // Lost to a claim that committed meanwhile: the told mark is read again (the winner may have told us).
      const told = await deps.claims.wasTold(reply.tx, target, customer.id);
      const settled = lost(customer.status, told);
      return onLost(deps, reply, state, settled.kind === 'lost' ? settled : { release: false, tell: false });
    }
    case 'lost':
      return onLost(deps, reply, state, decision);
    case 'back_out':
      return (await onBackOut(deps, reply, state)) ?? actOn(deps, reply, state, decision.otherwise);
  }
}

/**
 * The verdicts of the customers a won claim told (issue 16's race: their own YES, arriving after, is then
 * stored in one statement): freed, told, the slot decided. Written only where the row holds that state (a
 * customer another open alert still holds, or whose own reply is in flight, is left unknown).
 */
async function rememberToldOthers(
  deps: ConversationDeps,
  reply: Reply,
  pushEnabled: boolean,
  told: ToldOthers,
) {
  const offer = { openingOpen: false, won: false, told: true };
  await deps.customers.writeReplyVerdicts(
    reply.tx,
    told.map(({ customerId, autoAnsweredAt }) => {
      const customer = { status: 'waiting' as const, optedOut: false, autoAnsweredAt };
      return {
        customerId,
        decidedFrom: customer,
        verdict: verdictOf({ customer, pushEnabled, offer }, reply.now),
      };
    }),
  );
}

async function onLost(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow; target: ClaimTarget | undefined },
  state: ReplyState,
  decision: { release: boolean; tell: boolean },
): Promise<ActedOn> {
  const status = await deps.claims.settleLost(reply.tx, { ...reply, target: reply.target!, ...decision });
  return {
    ...state,
    customer: { ...state.customer, status },
    offer: { openingOpen: false, won: false, told: true },
    action: 'reply',
  };
}

/** STOP, START and HELP: the opt-out recorded or lifted (messaging's, mirrored on the customers rows). */
async function onKeyword(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow },
  state: ReplyState,
  keyword: 'stop' | 'start' | 'help',
): Promise<ActedOn> {
  const { tx, userId, from, now, customer } = reply;
  // In the customer's language (issue 28).
  const words = customerWords(customer.language).texts;
  const business = businessNameIn(reply.business.named, customer.language);
  const answer = (body: string) => deps.texts.answer(tx, userId, customer, body, now);
  if (keyword === 'help') {
    await answer(words.help(business));
    return { ...state, action: 'help' };
  }
  const stop = keyword === 'stop';
  const recorded = stop
    ? await deps.texts.recordOptOut(tx, userId, from, now)
    : await deps.texts.removeOptOut(tx, userId, from);
  if (!confirmsKeyword(keyword, { wasOptedOut: customer.optedOut, recorded })) {
    return { ...state, action: 'ignored' };
  }
  await deps.customers.setOptedOutByPhone(tx, userId, from, stop, now);
  await answer(stop ? words.stopConfirmation(business) : words.startConfirmation(business));
  return {
    ...state,
    customer: { ...state.customer, optedOut: stop },
    action: stop ? 'opted_out' : 'opted_in',
  };
}

/**
 * Free text goes to the owner, never into silence: their phone hears of it (push on), and the customer gets
 * the automatic answer when it is due. Returns the automatic answer's time as it now stands.
 */
async function onFreeText(
  deps: ConversationDeps,
  reply: Reply & { customer: CustomerRow },
  decision: { notifyOwner: boolean; autoAnswer: boolean },
): Promise<Date | null> {
  const { tx, userId, customer, now } = reply;
  if (decision.notifyOwner) {
    await deps.notifyOwner?.(
      tx,
      userId,
      {
        title: pushMessages.replyTitle,
        body: `${firstName(customer.name)}: ${reply.body.slice(0, 120)}`,
        url: `/inbox/${customer.id}`,
      },
      now,
    );
  }
  if (!decision.autoAnswer) return customer.autoAnsweredAt;
  if (!(await deps.customers.takeAutoAnswer(tx, customer.id, customer.autoAnsweredAt, now))) {
    return customer.autoAnsweredAt; // another reply took it meanwhile: the row no longer holds this time
  }
  await deps.texts.queueOrSkip(tx, {
    userId,
    customerId: customer.id,
    to: customer.phone,
    body: customerWords(customer.language).texts.autoAnswer(
      businessNameIn(reply.business.named, customer.language),
    ),
    language: customer.language,
    now,
  });
  return now;
}
