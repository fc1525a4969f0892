import { z } from 'zod';
import { openingStatuses } from './openings.schemas.ts';
import { customerSchema, messageSchema } from './waitlist.schemas.ts';

/**
 * The owner's inbox (issue 15): every conversation with a customer who replied, newest first, with unread
 * counts; the owner answers from it.
 */
export const INBOX_PAGE_SIZE = 30;

export const inboxMessages = {
  /** 400: a `before` that is no cursor of ours (issue 27: in the catalogue). */
  badCursor: 'before must be a cursor from the previous page.',
  replySent: 'Your reply is on its way.',
  loadFailed: 'Failed to load your inbox.',
  sendFailed: 'Your reply could not be sent. Please try again.',
} as const;

export const inboxQuery = z.object({
  /** The cursor of the page before (the `nextCursor` of the previous answer). */
  before: z.coerce
    .number({ message: inboxMessages.badCursor })
    .int(inboxMessages.badCursor)
    .positive(inboxMessages.badCursor)
    .optional(),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const conversationSummarySchema = z.object({
  customer: customerSchema,
  lastMessage: z.object({
    body: z.string(),
    direction: z.enum(['in', 'out']),
    createdAt: z.string(),
  }),
  /**
   * The customer's own last words, the list's preview (issue 27): "what time?", not the automatic answer
   * that followed it. `lastMessage` stays the latest activity, which orders the list.
   */
  lastReply: z
    .object({
      body: z.string(),
      createdAt: z.string(),
    })
    .nullable(),
  /** Replies the owner has not opened yet. */
  unread: z.number().int(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const inboxResponse = z.object({
  success: z.literal(true),
  data: z.array(conversationSummarySchema),
  /** Pass as `before` for the next page; null on the last page. */
  nextCursor: z.number().int().nullable(),
  timeZone: z.string(),
});

export const unreadResponse = z.object({
  success: z.literal(true),
  data: z.object({ unread: z.number().int() }),
});

/** The alert a reply answered: the last one the customer was texted before the reply. */
export const replyContextSchema = z.object({
  openingId: z.string(),
  service: z.string(),
  startsAt: z.string(),
  status: z.enum(openingStatuses),
  /** Whether this customer got the slot. */
  won: z.boolean(),
});
export type ReplyContext = z.infer<typeof replyContextSchema>;

export const inboxMessageSchema = messageSchema.extend({
  /** For a reply: the alert it answered, if any. */
  context: replyContextSchema.nullable(),
});
export type InboxMessage = z.infer<typeof inboxMessageSchema>;

export const inboxThreadResponse = z.object({
  success: z.literal(true),
  customer: customerSchema,
  data: z.array(inboxMessageSchema),
  timeZone: z.string(),
});
