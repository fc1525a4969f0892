import {
  type ConversationSummary,
  INBOX_PAGE_SIZE,
  type InboxMessage,
  type InboxQuery,
  type Message,
  type ReplyContext,
  waitlistMessages,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { NotFound } from '../../lib/errors.ts';
import type { ConversationSummary as TextsConversation } from '../messaging/messaging.service.ts';
import * as repo from './waitlist.repo.ts';

/** The alerts a customer was texted, oldest first (features/openings' repo owns offers and openings). */
export interface CustomerOffer {
  openingId: string;
  service: string;
  startsAt: Date;
  status: ReplyContext['status'];
  sentAt: Date | null;
  won: boolean;
}

/** What the inbox needs from other features, wired in composition.ts (decision 0008). */
export interface InboxDeps {
  db: Database;
  /** Texts (features/messaging). */
  texts: {
    conversationsOf(userId: string, page: { limit: number; before?: number }): Promise<TextsConversation[]>;
    unreadReplies(userId: string): Promise<number>;
    markRead(userId: string, customerId: string): Promise<void>;
    conversation(userId: string, customerId: string): Promise<Message[]>;
  };
  /** The alerts a customer was texted (features/openings). */
  offersOfCustomer(executor: Executor, userId: string, customerId: string): Promise<CustomerOffer[]>;
  /** The waitlist's own "send a text to this customer" (refusals and all). */
  sendText(user: UserRow, customerId: string, body: string): Promise<Message>;
}

/** The alert a reply answered: the last one texted to the customer before it. */
export function contextOf(offers: CustomerOffer[], at: Date): ReplyContext | null {
  let match: CustomerOffer | undefined;
  for (const offer of offers) if (offer.sentAt && offer.sentAt <= at) match = offer;
  return match
    ? {
        openingId: match.openingId,
        service: match.service,
        startsAt: match.startsAt.toISOString(),
        status: match.status,
        won: match.won,
      }
    : null;
}

/**
 * The owner's inbox (issue 15): every conversation with a customer who replied, newest first, unread
 * counts, each reply beside the alert it answered; answers go out as texts through the outbox.
 */
export function createInboxService(deps: InboxDeps) {
  const { db, texts } = deps;

  async function customerOf(user: UserRow, customerId: string) {
    const customer = await repo.findCustomerAnyStatus(db, user.id, customerId);
    if (!customer) throw new NotFound(waitlistMessages.customerNotFound);
    return customer;
  }

  return {
    async conversations(user: UserRow, query: InboxQuery) {
      const rows = await texts.conversationsOf(user.id, { limit: INBOX_PAGE_SIZE + 1, before: query.before });
      const page = rows.slice(0, INBOX_PAGE_SIZE);
      const customerRows = await repo.customersByIds(
        db,
        user.id,
        page.map((row) => row.customerId),
      );
      const customers = new Map(customerRows.map((row) => [row.id, repo.customerDto(row)]));
      const data: ConversationSummary[] = page.flatMap((row) => {
        const customer = customers.get(row.customerId);
        return customer
          ? [
              {
                customer,
                lastMessage: {
                  body: row.lastBody,
                  direction: row.lastDirection,
                  createdAt: row.lastAt.toISOString(),
                },
                // The customer's own last words, not our automatic answer after them (issue 27).
                lastReply: row.lastReply
                  ? { body: row.lastReply.body, createdAt: row.lastReply.at.toISOString() }
                  : null,
                unread: row.unread,
              },
            ]
          : [];
      });
      return {
        data,
        nextCursor: rows.length > INBOX_PAGE_SIZE ? (page.at(-1)?.lastSeq ?? null) : null,
        timeZone: user.timeZone,
      };
    },

    unread: (user: UserRow) => texts.unreadReplies(user.id),

    /** One conversation, oldest first, each reply with the alert it answered; opening it marks it read. */
    async thread(user: UserRow, customerId: string) {
      const customer = await customerOf(user, customerId);
      const [messages, offers] = await Promise.all([
        texts.conversation(user.id, customerId),
        deps.offersOfCustomer(db, user.id, customerId),
      ]);
      await texts.markRead(user.id, customerId);
      const data: InboxMessage[] = messages.map((message) => ({
        ...message,
        context: message.direction === 'in' ? contextOf(offers, new Date(message.createdAt)) : null,
      }));
      return { customer: repo.customerDto(customer), data, timeZone: user.timeZone };
    },

    async markRead(user: UserRow, customerId: string) {
      await customerOf(user, customerId);
      await texts.markRead(user.id, customerId);
      return { unread: await texts.unreadReplies(user.id) };
    },

    /** The owner's answer: a text through the outbox (STOP respected), and the conversation is read. */
    async reply(user: UserRow, customerId: string, body: string) {
      const message = await deps.sendText(user, customerId, body);
      await texts.markRead(user.id, customerId);
      return message;
    },
  };
}
export type InboxService = ReturnType<typeof createInboxService>;
