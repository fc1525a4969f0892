import { randomUUID } from 'node:crypto';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { businessCountry, isTextableNumber } from '../../lib/textable-number.ts';
import type { SmsProvider } from '../../providers/sms/index.ts';
import { prepareInboundTexts, type SignedNonce, type VerdictAnswer } from './inbound-texts.repo.ts';
import {
  conversation,
  conversationsOf,
  findMessage,
  findMessageByProviderId,
  markConversationRead,
  messageDto,
  phonesThatReceivedTexts,
  recordInboundEvent,
  threadOf,
  unreadReplies,
  updateMessageStatus,
} from './messaging.repo.ts';
import { isOptedOut, optOutsOf, recordOptOut, removeOptOut } from './opt-outs.repo.ts';
import { type BusinessNumbers, createPhoneNumbers } from './phone-number.ts';
import type { EnqueueSmsInput, Texting } from './texting.ts';

/**
 * Texting as transport (decision 0013): features/messaging stores, de-duplicates, rate-limits and sends texts,
 * keeps the business's number and the phones' opt-outs, and nothing else. What a customer's text means is
 * the conversation's (features/conversation); offers and claims are openings'; customers are waitlist's.
 */

export type {
  InboundTextInput,
  RecordedInboundText,
  SignedNonce,
  VerdictAnswer,
} from './inbound-texts.repo.ts';
export type { ConversationSummary } from './messaging.repo.ts';
export type { PhoneNumberState } from './phone-number.ts';
export type { EnqueueSmsInput, Texting, TextingCustomers } from './texting.ts';

/**
 * The way in for a text a customer sent (the conversation's, features/conversation, handed to the webhook and
 * the local phone in routes.ts): answers whether it was stored now, was a replay, or reached no business.
 */
export type ReceiveInbound = (text: {
  from: string;
  to: string;
  text: string;
  providerMessageId: string;
  /** The webhook's nonce, recorded as used with the text (one statement); one used before stores nothing. */
  nonce?: SignedNonce;
}) => Promise<{ outcome: 'duplicate' | 'unknown_number' | 'received' }>;

export interface DeliveryReport {
  providerMessageId: string;
  /** Plivo's status: queued, sent, delivered, undelivered, failed, rejected… */
  status: string;
  errorCode?: string | undefined;
  /** Our id, from the callback URL: finds the message even before its provider id was stored. */
  messageId?: string | undefined;
}

/** Later statuses never go back to earlier ones (delivery reports can arrive out of order). */
const STATUS_RANK = { queued: 0, sent: 1, delivered: 2, undelivered: 2, failed: 2, received: 0 } as const;
const PLIVO_STATUS: Record<string, 'sent' | 'delivered' | 'undelivered' | 'failed'> = {
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  rejected: 'failed',
};

/**
 * What the conversation (features/conversation/inbound.ts) uses of texting: storing an inbound text (in one
 * statement when the customer's stored verdict allows), answers and opt-outs in the caller's transaction.
 */
export function createInboundTexts(db: Database, texting: Texting, answer?: VerdictAnswer) {
  const stored = prepareInboundTexts(db, answer);
  return {
    record: stored.record,
    recordIfQuiet: stored.recordIfQuiet,
    markRead: stored.markRead,
    answer: texting.answer,
    queueOrSkip: texting.queueOrSkip,
    recordOptOut,
    removeOptOut,
    /** Whether the business (number `to`) may text `from` at all: its country, a textable type (issue 24). */
    mayText: (from: string, to: string) => isTextableNumber(from, businessCountry({ plivoNumber: to })),
  };
}

export type InboundTexts = ReturnType<typeof createInboundTexts>;

/** A delivery report: applied once per (message, status), never moving a message backwards. */
async function applyDeliveryReport(db: Database, report: DeliveryReport, now: Date) {
  const status = PLIVO_STATUS[report.status.toLowerCase()];
  return db.transaction(async (tx) => {
    const event = `status:${report.providerMessageId}:${report.status.toLowerCase()}`;
    if (!(await recordInboundEvent(tx, event, now))) return { applied: false };
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

export function createMessagingService(deps: {
  db: Database;
  clock: Clock;
  sms: SmsProvider;
  logger: Logger;
  publicUrl: string;
  /** Wakes the outbox worker; called after a commit that queued texts (and only then). */
  onOutboxWrite?: () => void;
  /** Queues texts in the caller's transaction (built once in composition.ts). */
  texting: Texting;
  /** The business's dedicated number (features/auth's repo). */
  numbers: BusinessNumbers;
}) {
  const { db, clock, texting } = deps;
  const wakeOutbox = () => deps.onOutboxWrite?.();

  return {
    applyDeliveryReport: (report: DeliveryReport) => applyDeliveryReport(db, report, clock.now()),
    ...createPhoneNumbers(deps),
    /** A fresh provider message id for a text sent from the local phone simulator. */
    localInboundId: () => `local-in-${randomUUID()}`,
    enqueueSms: texting.enqueueSms,
    enqueueSmsMany: texting.enqueueSmsMany,
    /** The phones among `phones` that opted out of the business, with when (sms_opt_outs, issue 24). */
    optOutsOf,
    /** Whether the phone opted out of the business (sms_opt_outs). */
    isOptedOut: (executor: Executor, userId: string, phone: string) => isOptedOut(executor, userId, phone),
    /** A phone's own opt-in by text (JOIN) lifts its opt-out, in the caller's transaction. */
    removeOptOut,
    /** enqueueSms in its own transaction, then a wake of the outbox (routes and tools). */
    async sendText(input: Omit<EnqueueSmsInput, 'now'>) {
      const queued = await db.transaction((tx) => texting.enqueueSms(tx, { ...input, now: clock.now() }));
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
