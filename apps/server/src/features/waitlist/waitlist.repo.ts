import {
  type Customer,
  DEFAULT_MESSAGE_TEMPLATES,
  type Message,
  type MessageTemplateKey,
} from '@waitlist/contract';
import { and, asc, eq, ilike, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, messages, messageTemplates, users } from '../../db/schema.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function customerDto(row: CustomerRow): Customer {
  return {
    id: row.id,
    name: row.name,
    phone: row.phone,
    notes: row.notes,
    status: row.status,
    position: row.position,
    consentMethod: row.consentMethod,
    consentedAt: row.consentedAt.toISOString(),
    optedOut: row.optedOut,
    optedOutAt: iso(row.optedOutAt),
    preferences: row.preferences ?? [],
    firstTextSent: row.firstTextSent,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function messageDto(row: MessageRow): Message {
  return {
    id: row.id,
    customerId: row.customerId,
    openingId: row.openingId,
    direction: row.direction,
    fromNumber: row.fromNumber,
    toNumber: row.toNumber,
    body: row.body,
    segments: row.segments,
    encoding: row.encoding,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: iso(row.sentAt),
    deliveredAt: iso(row.deliveredAt),
  };
}

/** Locks the owner's row: caps and alerts per day are checked and written under it, so two requests never both pass. */
export async function lockUser(executor: Executor, userId: string) {
  const [row] = await executor.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export function listCustomers(
  executor: Executor,
  userId: string,
  filter: { search?: string; status?: CustomerRow['status'] } = {},
) {
  const conditions = [eq(customers.userId, userId)];
  if (filter.status) conditions.push(eq(customers.status, filter.status));
  else conditions.push(ne(customers.status, 'removed'));
  const search = filter.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const digits = search.replace(/\D/g, '');
    const matches = [ilike(customers.name, pattern), ilike(customers.notes, pattern)];
    if (digits.length >= 2) matches.push(sql`${customers.phone} like ${`%${digits}%`}`);
    conditions.push(or(...matches)!);
  }
  return executor
    .select()
    .from(customers)
    .where(and(...conditions))
    .orderBy(asc(customers.position), asc(customers.createdAt));
}

export async function countActive(executor: Executor, userId: string): Promise<number> {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(customers)
    .where(and(eq(customers.userId, userId), ne(customers.status, 'removed')));
  return row?.count ?? 0;
}

export async function nextPosition(executor: Executor, userId: string): Promise<number> {
  const [row] = await executor
    .select({ max: sql<number | null>`max(${customers.position})` })
    .from(customers)
    .where(eq(customers.userId, userId));
  return (row?.max ?? 0) + 1;
}

export async function findCustomer(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.id, id), ne(customers.status, 'removed')));
  return row;
}

export async function findActiveByPhone(executor: Executor, userId: string, phone: string) {
  const [row] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.phone, phone), ne(customers.status, 'removed')));
  return row;
}

export async function templatesOf(executor: Executor, userId: string) {
  const rows = await executor.select().from(messageTemplates).where(eq(messageTemplates.userId, userId));
  const custom = new Map(rows.map((row) => [row.key, row.body]));
  const result = {} as Record<MessageTemplateKey, { body: string; isDefault: boolean }>;
  for (const [key, body] of Object.entries(DEFAULT_MESSAGE_TEMPLATES) as [MessageTemplateKey, string][]) {
    const own = custom.get(key);
    result[key] = own === undefined ? { body, isDefault: true } : { body: own, isDefault: false };
  }
  return result;
}

export async function upsertTemplate(
  executor: Executor,
  userId: string,
  key: string,
  body: string,
  now: Date,
) {
  await executor
    .insert(messageTemplates)
    .values({ userId, key, body, updatedAt: now })
    .onConflictDoUpdate({
      target: [messageTemplates.userId, messageTemplates.key],
      set: { body, updatedAt: now },
    });
}

export function conversation(executor: Executor, userId: string, customerId: string) {
  return executor
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.customerId, customerId)))
    .orderBy(asc(messages.createdAt), asc(messages.seq));
}
