import { randomUUID } from 'node:crypto';
import { isClaim, smsInfo } from '@waitlist/contract';
import type { Database, Executor, Transaction } from '../../db/client.ts';
import type { CustomerRow, NumberChange, NumberFields, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequest, Conflict, Forbidden, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { businessCountry, isTextableNumber } from '../../lib/textable-number.ts';
import { enqueueSmsDelivery } from '../../outbox/index.ts';
import { type SmsProvider, SmsProviderError } from '../../providers/sms/index.ts';
import { keywordOf, keywordReplies, messagingMessages } from './messaging.messages.ts';
import {
  type AutoAnswerRule,
  conversation,
  conversationsOf,
  findMessage,
  findMessageByProviderId,
  insertMessage,
  insertQueuedTexts,
  markConversationRead,
  messageDto,
  phonesThatReceivedTexts,
  prepareInboundTexts,
  type QuietReplyCondition,
  queuedText,
  recordInboundEvent,
  threadOf,
  unreadReplies,
  updateMessageStatus,
} from './messaging.repo.ts';
import { isOptedOut, optOutsOf, recordOptOut, removeOptOut } from './opt-outs.repo.ts';

export type { AutoAnswerRule, ConversationSummary, QuietReplyCondition } from './messaging.repo.ts';

/** Why a text was refused: the number is not verified, or the phone opted out (HTTP 403). */
export class TextingRefused extends Forbidden {
  constructor(
    readonly reason: 'number_not_verified' | 'opted_out',
    message: string,
  ) {
    super(message);
  }
}

export interface EnqueueSmsInput {
  userId: string;
  customerId?: string | null;
  openingId?: string | null;
  /** E.164. */
  to: string;
  body: string;
  now: Date;
}

/**
 * The customers texting reads and flags (features/waitlist's repo owns the table; app.ts hands these over).
 * Each takes the caller's executor, so it runs in the caller's transaction.
 */
export interface TextingCustomers {
  /** Whatever its status: a removed customer can still be answered. */
  findCustomerAnyStatus(executor: Executor, userId: string, id: string): Promise<CustomerRow | undefined>;
  findCustomerByPhone(executor: Executor, userId: string, phone: string): Promise<CustomerRow | undefined>;
  claimFirstText(executor: Executor, customerId: string): Promise<boolean>;
  /** Mirrors the business's opt-out of a phone (sms_opt_outs) on every customers row of that phone. */
  setOptedOutByPhone(
    executor: Executor,
    userId: string,
    phone: string,
    optedOut: boolean,
    now: Date,
  ): Promise<unknown>;
  claimCustomersForText(
    executor: Executor,
    input: { userId: string; customerIds: string[]; allowOptedOut: boolean },
  ): Promise<{ id: string; phone: string; wasFirstTextSent: boolean }[]>;
}

/** The business's dedicated number (features/auth's repo owns `users`; app.ts hands these over). */
export interface BusinessNumbers {
  findSender(
    executor: Executor,
    userId: string,
  ): Promise<(Pick<UserRow, 'id' | 'businessName'> & NumberFields) | undefined>;
  setPhoneNumber(executor: Executor, userId: string, values: NumberChange, now: Date): Promise<unknown>;
  /** True for the one request that may rent a number now (the row moved to "pending, no number yet"). */
  claimNumberRequest(executor: Executor, userId: string, now: Date, staleAfter: Date): Promise<boolean>;
}

/** A number request left unfinished (a crash between claiming and renting) may be claimed again after this. */
const NUMBER_REQUEST_STALE_MS = 2 * 60 * 1000;

/**
 * Texting's one writer of texts: `enqueueSms` queues one text from the business's verified number, in the
 * caller's transaction: a 'queued' messages row and its outbox row. The first text to a customer ends with
 * "Reply STOP to opt out". Refuses (TextingRefused, 403) when the number is not verified or the phone opted
 * out of the business (sms_opt_outs, whoever the text is for: a customer, a join request, anyone; issue 24).
 * The caller wakes the outbox after its transaction commits.
 */
export function createTexting(customers: TextingCustomers, numbers: Pick<BusinessNumbers, 'findSender'>) {
  /**
   * The common case (waitlist customers of a business with a verified number) for any number of texts in
   * two statements: the customers claimed together, the messages and their outbox rows inserted together in
   * the order given. Answers the message ids in that order, null for a text it could not take (refused or not
   * found), which the caller sends the general way to learn why.
   */
  async function queueCommon(executor: Executor, inputs: EnqueueSmsInput[]): Promise<(string | null)[]> {
    const userId = inputs[0]?.userId;
    const customerIds = inputs.map((input) => input.customerId);
    if (!userId || inputs.some((input) => input.userId !== userId) || customerIds.some((id) => !id)) {
      return inputs.map(() => null);
    }
    const claimed = new Map(
      (
        await customers.claimCustomersForText(executor, {
          userId,
          customerIds: [...new Set(customerIds as string[])],
          allowOptedOut: false,
        })
      ).map((row) => [row.id, row]),
    );
    const texts = inputs.flatMap((input) => {
      const customer = claimed.get(input.customerId!);
      if (!customer) return [];
      // A customer texted twice in one batch gets the opt-out footer once, on the first.
      claimed.set(customer.id, { ...customer, wasFirstTextSent: true });
      const text = queuedText(input.body, { firstText: !customer.wasFirstTextSent });
      return [
        {
          input,
          text: {
            id: randomUUID(),
            customerId: customer.id,
            openingId: input.openingId ?? null,
            to: customer.phone,
            ...text,
          },
        },
      ];
    });
    const inserted = await insertQueuedTexts(executor, {
      userId,
      now: inputs[0]!.now,
      texts: texts.map(({ text }) => text),
    });
    // A text not inserted (the number is not verified, or the phone opted out) goes the general way, which
    // says why.
    const ids = new Map(
      texts.flatMap(({ input, text }) => (inserted.has(text.id) ? [[input, text.id]] : [])),
    );
    return inputs.map((input) => ids.get(input) ?? null);
  }

  async function queueText(
    executor: Executor,
    input: EnqueueSmsInput,
    options: { compliance: boolean },
  ): Promise<{ messageId: string }> {
    if (input.customerId && !options.compliance) {
      const [messageId] = await queueCommon(executor, [input]);
      if (messageId) return { messageId };
    }
    return queueGeneral(executor, input, options);
  }

  /**
   * Any text the common case did not take: a compliance answer, a number with no customer, or a refusal,
   * which this path names (TextingRefused: the number is not verified, or the customer opted out).
   */
  async function queueGeneral(
    executor: Executor,
    input: EnqueueSmsInput,
    options: { compliance: boolean },
  ): Promise<{ messageId: string }> {
    const sender = await numbers.findSender(executor, input.userId);
    if (!sender) throw new NotFound(messagingMessages.customerNotFound);
    if (!sender.plivoNumber || sender.plivoNumberStatus !== 'verified') {
      const message = !sender.plivoNumber
        ? messagingMessages.noNumber
        : sender.plivoNumberStatus === 'failed'
          ? messagingMessages.numberFailed(sender.plivoNumberError)
          : messagingMessages.numberPending;
      throw new TextingRefused('number_not_verified', message);
    }
    const customer = input.customerId
      ? await customers.findCustomerAnyStatus(executor, input.userId, input.customerId)
      : await customers.findCustomerByPhone(executor, input.userId, input.to);
    if (input.customerId && !customer) throw new NotFound(messagingMessages.customerNotFound);
    const to = customer?.phone ?? input.to;
    if (!options.compliance && (customer?.optedOut || (await isOptedOut(executor, input.userId, to)))) {
      throw new TextingRefused(
        'opted_out',
        customer ? messagingMessages.optedOut(customer.name) : messagingMessages.numberOptedOut,
      );
    }
    const firstText =
      customer !== undefined &&
      !options.compliance &&
      (await customers.claimFirstText(executor, customer.id));
    const text = queuedText(input.body, { firstText });
    const message = await insertMessage(executor, {
      userId: input.userId,
      customerId: customer?.id ?? null,
      openingId: input.openingId ?? null,
      direction: 'out',
      fromNumber: sender.plivoNumber,
      toNumber: to,
      ...text,
      status: 'queued',
      createdAt: input.now,
    });
    await enqueueSmsDelivery(
      executor,
      [options.compliance ? { messageId: message.id, compliance: true } : { messageId: message.id }],
      input.now,
    );
    return { messageId: message.id };
  }

  return {
    queueText,
    async enqueueSms(executor: Executor, input: EnqueueSmsInput): Promise<{ messageId: string }> {
      const queued = await queueText(executor, input, { compliance: false });
      return { messageId: queued.messageId };
    },
    /**
     * Texts of one business, queued together in the order given (issue 16: telling 99 customers a slot is
     * taken was 300 statements in the winner's transaction, now 3). Each text is what enqueueSms would queue,
     * and one it refuses throws as enqueueSms would.
     */
    async enqueueSmsMany(executor: Executor, inputs: EnqueueSmsInput[]): Promise<{ messageId: string }[]> {
      const queued = await queueCommon(executor, inputs);
      const results: { messageId: string }[] = [];
      for (const [index, input] of inputs.entries()) {
        const messageId = queued[index];
        // One the common case did not take goes the general way, which queues it or says why not.
        results.push(messageId ? { messageId } : await queueGeneral(executor, input, { compliance: false }));
      }
      return results;
    },
  };
}

export type Texting = ReturnType<typeof createTexting>;

/** H-DOMAIN's reply handling (features/openings: YES → claim), called inside the inbound transaction. */
export type InboundReplyHandler = (input: {
  tx: Executor;
  userId: string;
  /** The business's name, time zone and push switch, read with the text (no second read of the owner). */
  business: { name: string; timeZone: string; pushEnabled: boolean };
  customer: CustomerRow;
  body: string;
  now: Date;
}) => Promise<void>;

export interface InboundText {
  /** E.164 (or Plivo's digits without '+'). */
  from: string;
  to: string;
  text: string;
  providerMessageId: string;
}

export type InboundResult =
  | { outcome: 'duplicate' }
  | { outcome: 'unknown_number' }
  | {
      outcome: 'received';
      messageId: string;
      action: InboundAction;
    };

/** What an inbound text did; joining by text (issue 15) adds join_requested and joined. */
export type InboundAction =
  | 'opted_out'
  | 'opted_in'
  | 'help'
  | 'reply'
  | 'join_requested'
  | 'joined'
  | 'ignored';

/**
 * A text from a number that is not the business's customer (features/waitlist: JOIN, and its YES). Texting
 * has already recorded a STOP as the business's opt-out, and passes on only numbers it may answer (of the
 * business's country and a textable type, issue 24). `reply` queues a compliance answer to the number (sent
 * even though it just opted out; skipped when the business's number cannot text).
 */
export type StrangerHandler = (input: {
  tx: Executor;
  userId: string;
  from: string;
  body: string;
  keyword: 'stop' | 'start' | 'help' | null;
  messageId: string;
  now: Date;
  reply: (body: string) => Promise<void>;
}) => Promise<InboundAction>;

export interface DeliveryReport {
  providerMessageId: string;
  /** Plivo's status: queued, sent, delivered, undelivered, failed, rejected… */
  status: string;
  errorCode?: string | undefined;
  /** Our id, from the callback URL: finds the message even before its provider id was stored. */
  messageId?: string | undefined;
}

export type PhoneNumberState = {
  number: string | null;
  status: 'pending' | 'verified' | 'failed' | null;
  error: string | null;
};

const e164 = (number: string) => {
  const trimmed = number.trim();
  return trimmed.startsWith('+') ? trimmed : `+${trimmed.replace(/\D/g, '')}`;
};

/** Later statuses never go back to earlier ones (delivery reports can arrive out of order). */
const STATUS_RANK = { queued: 0, sent: 1, delivered: 2, undelivered: 2, failed: 2, received: 0 } as const;
const PLIVO_STATUS: Record<string, 'sent' | 'delivered' | 'undelivered' | 'failed'> = {
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  rejected: 'failed',
};

export function createMessagingService(deps: {
  db: Database;
  clock: Clock;
  sms: SmsProvider;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker; called after a commit that queued texts (and only then). */
  onOutboxWrite?: () => void;
  /** The customers (features/waitlist's repo), handed over in app.ts. */
  customers: TextingCustomers;
  /** The business's dedicated number (features/auth's repo). */
  numbers: BusinessNumbers;
  handlers?: {
    onCustomerReply?: InboundReplyHandler;
    /**
     * The replies onCustomerReply would do nothing with, in SQL (see QuietReplyCondition): such a reply is
     * stored in one statement, outside a transaction.
     */
    quietReply?: QuietReplyCondition;
    /**
     * A free-text reply whose one consequence is onCustomerReply's automatic answer (see AutoAnswerRule):
     * stored with its answer queued in one statement.
     */
    autoAnswer?: AutoAnswerRule;
    onStranger?: StrangerHandler;
  };
}) {
  const { db, clock, sms, customers } = deps;
  const wakeOutbox = () => deps.onOutboxWrite?.();
  const { queueText, enqueueSms, enqueueSmsMany } = createTexting(customers, deps.numbers);
  const onCustomerReply = deps.handlers?.onCustomerReply;
  const quietReply = onCustomerReply ? deps.handlers?.quietReply : undefined;
  const inbound = prepareInboundTexts(
    db,
    quietReply ? { quiet: quietReply, autoAnswer: deps.handlers?.autoAnswer } : undefined,
  );

  /** A compliance or keyword answer; skipped (not thrown) when the number cannot text. */
  async function answer(
    tx: Executor,
    userId: string,
    to: Pick<CustomerRow, 'id' | 'phone'> | { id: null; phone: string },
    body: string,
    now: Date,
  ) {
    try {
      await queueText(tx, { userId, customerId: to.id, to: to.phone, body, now }, { compliance: true });
    } catch (error) {
      if (!(error instanceof TextingRefused)) throw error;
      deps.logger.warn({ userId, reason: error.reason }, 'keyword answer not sent');
    }
  }

  /**
   * An inbound text, from the webhook (after its signature check) or from /dev/phone: stored once per
   * provider message id; STOP/START/HELP handled here; anything else goes to the reply handler.
   */
  async function receiveInbound(input: InboundText): Promise<InboundResult> {
    const now = clock.now();
    const from = e164(input.from);
    const to = e164(input.to);
    const info = smsInfo(input.text);
    const keyword = keywordOf(input.text);
    const claim = isClaim(input.text);
    const text = {
      eventId: `message:${input.providerMessageId}`,
      from,
      to,
      body: input.text,
      segments: Math.max(1, info.segments),
      encoding: info.encoding,
      providerMessageId: input.providerMessageId,
      now,
    };
    // Most replies ask nothing more ("Thanks!", a YES to a slot already filled and told) or only the automatic
    // answer: stored in one statement, the answer queued with it, no transaction (issue 16). What the database
    // finds does need more (a claim to make, the owner's phone to tell, a stranger, an unknown number) is
    // stored by the transaction below instead.
    if (quietReply && keyword === null) {
      const quiet = await inbound.recordIfQuiet(text, claim);
      if (quiet.outcome === 'duplicate') return quiet;
      if (quiet.outcome === 'stored') {
        if (quiet.answered) wakeOutbox();
        return {
          outcome: 'received',
          messageId: quiet.messageId,
          action: quiet.customerOptedOut ? 'ignored' : 'reply',
        };
      }
    }
    const result = await db.transaction((tx) => handleInbound(tx));
    // After the commit, so the worker sees what was queued (a keyword answer, or the reply handler's texts).
    // An ignored text queued nothing; any other may have (a wake that finds nothing due costs one query).
    if (result.outcome === 'received' && result.action !== 'ignored') wakeOutbox();
    return result;

    async function handleInbound(tx: Transaction): Promise<InboundResult> {
      const stored = await inbound.record(tx, { ...text, read: keyword !== null || claim });
      if (stored.outcome !== 'stored') return { outcome: stored.outcome };
      const { user, customer, messageId } = stored;
      const received = (action: InboundAction) => ({
        outcome: 'received' as const,
        messageId,
        action,
      });
      const business = user.businessName || 'Your business';
      if (!customer) return received(await fromStranger(tx, user.id, business, messageId));
      if (keyword === 'stop') {
        // The business's opt-out of the phone (issue 24), mirrored on its customers rows. One confirmation: a
        // second STOP from someone already opted out gets nothing.
        const recorded = await recordOptOut(tx, user.id, from, now);
        if (customer.optedOut && !recorded) return received('ignored');
        await customers.setOptedOutByPhone(tx, user.id, from, true, now);
        await answer(tx, user.id, customer, keywordReplies.stop(business), now);
        return received('opted_out');
      }
      if (keyword === 'start') {
        const removed = await removeOptOut(tx, user.id, from);
        if (!customer.optedOut && !removed) return received('ignored');
        await customers.setOptedOutByPhone(tx, user.id, from, false, now);
        await answer(tx, user.id, customer, keywordReplies.start(business), now);
        return received('opted_in');
      }
      if (customer.optedOut) return received('ignored');
      if (keyword === 'help') {
        await answer(tx, user.id, customer, keywordReplies.help(business), now);
        return received('help');
      }
      if (!onCustomerReply) return received('ignored');
      await onCustomerReply({
        tx,
        userId: user.id,
        business: { name: user.businessName, timeZone: user.timeZone, pushEnabled: user.pushEnabled },
        customer,
        body: input.text,
        now,
      });
      return received('reply');
    }

    /**
     * A text from a number that is not a customer. STOP is recorded as the business's opt-out whoever sends
     * it; START removes one (and is confirmed only then). A number the business may not text (another
     * country, premium, toll-free…: issue 24) is answered nothing, whatever it says: JOIN, STOP or YES could
     * otherwise make us text a pumping number. The rest goes to the stranger handler (joining by text).
     */
    async function fromStranger(
      tx: Transaction,
      userId: string,
      business: string,
      messageId: string,
    ): Promise<InboundAction> {
      const textable = isTextableNumber(from, businessCountry({ plivoNumber: to }));
      const recorded = keyword === 'stop' && (await recordOptOut(tx, userId, from, now));
      if (keyword === 'start') {
        if (!(await removeOptOut(tx, userId, from))) return 'ignored';
        if (textable)
          await answer(tx, userId, { id: null, phone: from }, keywordReplies.start(business), now);
        return 'opted_in';
      }
      const onStranger = deps.handlers?.onStranger;
      if (!textable || !onStranger) return recorded ? 'opted_out' : 'ignored';
      const action = await onStranger({
        tx,
        userId,
        from,
        body: input.text,
        keyword,
        messageId,
        now,
        reply: (body) => answer(tx, userId, { id: null, phone: from }, body, now),
      });
      // A STOP is an opt-out even when no join request was waiting for it.
      return recorded ? 'opted_out' : action;
    }
  }

  /** A delivery report: applied once per (message, status), never moving a message backwards. */
  async function applyDeliveryReport(report: DeliveryReport): Promise<{ applied: boolean }> {
    const now = clock.now();
    const status = PLIVO_STATUS[report.status.toLowerCase()];
    return db.transaction(async (tx) => {
      if (
        !(await recordInboundEvent(
          tx,
          `status:${report.providerMessageId}:${report.status.toLowerCase()}`,
          now,
        ))
      ) {
        return { applied: false };
      }
      if (!status) return { applied: false };
      const message =
        (await findMessageByProviderId(tx, report.providerMessageId)) ??
        (report.messageId && /^[0-9a-f-]{36}$/i.test(report.messageId)
          ? await findMessage(tx, report.messageId)
          : undefined);
      if (message?.direction !== 'out') return { applied: false };
      if (STATUS_RANK[status] <= STATUS_RANK[message.status] && message.status !== 'queued') {
        return { applied: false };
      }
      await updateMessageStatus(tx, message.id, {
        status,
        providerMessageId: message.providerMessageId ?? report.providerMessageId,
        sentAt: message.sentAt ?? now,
        ...(status === 'delivered' ? { deliveredAt: now } : {}),
        ...(status === 'failed' || status === 'undelivered'
          ? { error: report.errorCode ? `Carrier error ${report.errorCode}` : `Text ${status}` }
          : {}),
      });
      return { applied: true };
    });
  }

  // ---- the dedicated number ----

  async function getPhoneNumber(userId: string): Promise<PhoneNumberState> {
    const sender = await deps.numbers.findSender(db, userId);
    if (!sender) throw new NotFound(messagingMessages.customerNotFound);
    return {
      number: sender.plivoNumber,
      status: sender.plivoNumberStatus,
      error: sender.plivoNumberStatus === 'failed' ? sender.plivoNumberError : null,
    };
  }

  async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SmsProviderError) {
        deps.logger.error({ err: error.message }, 'SMS provider call failed');
        throw new AppError(502, messagingMessages.providerUnavailable);
      }
      throw error;
    }
  }

  async function requestPhoneNumber(userId: string, areaCode?: string): Promise<PhoneNumberState> {
    const current = await getPhoneNumber(userId);
    if (current.number && current.status !== 'failed') throw new Conflict(messagingMessages.alreadyHasNumber);
    // Renting costs money: the row is claimed first, in one conditional UPDATE, so a burst of requests rents
    // one number (issue 24), not one each with the last one kept.
    const now = clock.now();
    const claimed = await deps.numbers.claimNumberRequest(
      db,
      userId,
      now,
      new Date(now.getTime() - NUMBER_REQUEST_STALE_MS),
    );
    if (!claimed) throw new Conflict(messagingMessages.alreadyHasNumber);
    const released = () =>
      deps.numbers.setPhoneNumber(
        db,
        userId,
        { plivoNumber: null, plivoNumberStatus: null, plivoNumberError: null },
        clock.now(),
      );
    let number: string | null;
    try {
      number = await viaProvider(async () => {
        const found = await sms.searchNumber(areaCode);
        if (!found) return null;
        const appId = await sms.ensureApplication(`${deps.publicUrl}/api/v1/webhooks/plivo/message`);
        await sms.rentNumber(found, appId);
        return found;
      });
    } catch (error) {
      await released();
      throw error;
    }
    if (!number) {
      await released();
      throw new BadRequest(messagingMessages.noNumberAvailable(areaCode), {
        areaCode: messagingMessages.noNumberAvailable(areaCode),
      });
    }
    await deps.numbers.setPhoneNumber(
      db,
      userId,
      { plivoNumber: number, plivoNumberStatus: 'pending', plivoNumberError: null },
      clock.now(),
    );
    return { number, status: 'pending', error: null };
  }

  async function verifyPhoneNumber(userId: string): Promise<PhoneNumberState> {
    const current = await getPhoneNumber(userId);
    if (!current.number) throw new BadRequest(messagingMessages.requestFirst);
    if (current.status === 'verified') return current;
    const number = current.number;
    const state = await viaProvider(() => sms.numberStatus(number));
    const error = state.status === 'failed' ? state.reason : null;
    await deps.numbers.setPhoneNumber(
      db,
      userId,
      { plivoNumberStatus: state.status, plivoNumberError: error },
      clock.now(),
    );
    return { number, status: state.status, error };
  }

  /** A fresh provider message id for a text sent from the local phone simulator. */
  const localInboundId = () => `local-in-${randomUUID()}`;

  return {
    receiveInbound,
    applyDeliveryReport,
    getPhoneNumber,
    requestPhoneNumber,
    verifyPhoneNumber,
    localInboundId,
    enqueueSms,
    enqueueSmsMany,
    /** The phones among `phones` that opted out of the business, with when (sms_opt_outs, issue 24). */
    optOutsOf,
    /** A phone's own opt-in by text (JOIN) lifts its opt-out, in the caller's transaction. */
    removeOptOut,
    /** enqueueSms in its own transaction, then a wake of the outbox (routes and tools). */
    async sendText(input: Omit<EnqueueSmsInput, 'now'>) {
      const queued = await db.transaction((tx) => enqueueSms(tx, { ...input, now: clock.now() }));
      wakeOutbox();
      return queued;
    },
    /** The inbox (issue 15): conversations with customers who replied, newest first, and unread replies. */
    conversationsOf: (userId: string, page: { limit: number; before?: number }) =>
      conversationsOf(db, userId, page),
    unreadReplies: (userId: string) => unreadReplies(db, userId),
    markRead: (userId: string, customerId: string) =>
      markConversationRead(db, userId, customerId, clock.now()),
    /** A customer's conversation, oldest first (features/waitlist shows it). */
    async conversation(userId: string, customerId: string) {
      return (await conversation(db, userId, customerId)).map(messageDto);
    },
    async message(id: string) {
      const row = await findMessage(db, id);
      return row && messageDto(row);
    },
    /** The local phone (/dev/phone): numbers that received a text, and one number's thread. */
    phonesThatReceivedTexts: () => phonesThatReceivedTexts(db),
    threadOf: (phone: string) => threadOf(db, phone),
  };
}

export type MessagingService = ReturnType<typeof createMessagingService>;
