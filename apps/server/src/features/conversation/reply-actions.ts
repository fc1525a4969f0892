import { customerWords, pushMessages } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow } from '../../db/rows.ts';
import type { ClaimTarget } from '../openings/openings.service.ts';
import type { ConversationDeps, InboundAction } from './conversation.service.ts';
import { confirmsKeyword, lost, type ReplyDecision, type ReplyState } from './reply-policy.ts';

/** A customer's reply inside the inbound transaction, with what acting on it needs. */
export interface Reply {
  tx: Executor;
  userId: string;
  /** The business's name (as texts show it) and time zone. */
  business: { name: string; timeZone: string };
  from: string;
  to: string;
  body: string;
  now: Date;
}

/** What a decision left: the state the next verdict is decided from, and what the text did. */
export type ActedOn = ReplyState & { action: InboundAction };

const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? name;

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
      if (await deps.claims.claim(reply.tx, { ...reply, target })) {
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
  }
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
  const words = customerWords().texts;
  const answer = (body: string) => deps.texts.answer(tx, userId, customer, body, now);
  if (keyword === 'help') {
    await answer(words.help(reply.business.name));
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
  await answer(
    stop ? words.stopConfirmation(reply.business.name) : words.startConfirmation(reply.business.name),
  );
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
    body: customerWords().texts.autoAnswer(reply.business.name),
    now,
  });
  return now;
}
