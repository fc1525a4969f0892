import { type Customer, customerWords, type Locale, type MessageTemplateKey } from '@waitlist/contract';
import { and, asc, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { CustomerRow } from '../../db/rows.ts';
import { customers, messageTemplates } from '../../db/schema.ts';

/**
 * The one home of the `customers` and `message_templates` tables (decision 0008). Openings and messaging
 * change customers through the functions below, handed to them in composition.ts as narrow `Pick<>`s.
 */
export type { CustomerRow };

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
    serviceId: row.serviceId,
    staffId: row.staffId,
    timeZone: row.timeZone,
    language: row.language,
    vip: row.vip,
    pinned: row.pinned,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the owner's list shows: a search, a status (default: all but removed) and a language (issue 28). */
export type ListFilter = {
  search?: string;
  status?: CustomerRow['status'];
  language?: CustomerRow['language'];
};

export function listCustomers(executor: Executor, userId: string, filter: ListFilter = {}) {
  const conditions = [eq(customers.userId, userId)];
  if (filter.language) conditions.push(eq(customers.language, filter.language));
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

/**
 * Each customer's real place in line (issue 27): 1-based among those waiting or offered, in waitlist order,
 * whatever a search or a filter shows; booked and removed customers hold none.
 */
export async function placesInLine(executor: Executor, userId: string): Promise<Map<string, number>> {
  const rows = await executor
    .select({
      id: customers.id,
      place: sql<number>`row_number() over (order by ${customers.position}, ${customers.createdAt})::int`,
    })
    .from(customers)
    .where(and(eq(customers.userId, userId), inArray(customers.status, ['waiting', 'offered'])));
  return new Map(rows.map((row) => [row.id, Number(row.place)]));
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

/**
 * The owner's templates in one language (issue 28; English when not given): each the owner's own version, else
 * the catalogue's default in that language.
 */
export async function templatesOf(executor: Executor, userId: string, language: Locale = 'en') {
  const rows = await executor
    .select()
    .from(messageTemplates)
    .where(and(eq(messageTemplates.userId, userId), eq(messageTemplates.language, language)));
  const custom = new Map(rows.map((row) => [row.key, row.body]));
  const result = {} as Record<MessageTemplateKey, { body: string; isDefault: boolean }>;
  for (const [key, body] of Object.entries(customerWords(language).templates) as [
    MessageTemplateKey,
    string,
  ][]) {
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
  language: Locale = 'en',
) {
  await executor
    .insert(messageTemplates)
    .values({ userId, key, language, body, updatedAt: now })
    .onConflictDoUpdate({
      target: [messageTemplates.userId, messageTemplates.key, messageTemplates.language],
      set: { body, updatedAt: now },
    });
}

/** The customer with this id, whatever its status (a removed customer's conversation stays readable). */
export async function findCustomerAnyStatus(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.id, id)));
  return row;
}

/** The waitlist entry a phone belongs to: the live one, else the most recently changed removed one. */
export async function findCustomerByPhone(executor: Executor, userId: string, phone: string) {
  const [customer] = await executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), eq(customers.phone, phone)))
    .orderBy(sql`case when ${customers.status} <> 'removed' then 0 else 1 end`, desc(customers.updatedAt))
    .limit(1);
  return customer;
}

/** Phones on the waitlist (not removed): duplicates in an import are checked against them. */
export async function activePhones(executor: Executor, userId: string): Promise<Set<string>> {
  const rows = await executor
    .select({ phone: customers.phone })
    .from(customers)
    .where(and(eq(customers.userId, userId), ne(customers.status, 'removed')));
  return new Set(rows.map((row) => row.phone));
}

export type NewCustomer = typeof customers.$inferInsert;

export async function insertCustomers(executor: Executor, rows: NewCustomer[]) {
  if (rows.length === 0) return [];
  return executor.insert(customers).values(rows).returning();
}

export type CustomerChanges = Partial<
  Pick<
    CustomerRow,
    | 'name'
    | 'phone'
    | 'notes'
    | 'consentMethod'
    | 'consentedAt'
    | 'preferences'
    | 'status'
    | 'position'
    | 'optedOut'
    | 'optedOutAt'
    | 'serviceId'
    | 'staffId'
    | 'timeZone'
    | 'vip'
    | 'pinned'
  >
>;

export async function updateCustomer(executor: Executor, id: string, changes: CustomerChanges, now: Date) {
  const [row] = await executor
    .update(customers)
    .set({ ...changes, updatedAt: now })
    .where(eq(customers.id, id))
    .returning();
  return row;
}

/** Marks a live customer removed (kept for its conversation); undefined when there was none. */
export async function removeCustomer(executor: Executor, userId: string, id: string, now: Date) {
  const [row] = await executor
    .update(customers)
    .set({ status: 'removed', updatedAt: now })
    .where(and(eq(customers.userId, userId), eq(customers.id, id), ne(customers.status, 'removed')))
    .returning();
  return row;
}

/** The positions of the listed live customers (a reorder keeps the positions they hold between them). */
export function positionsOf(executor: Executor, userId: string, ids: string[]) {
  return executor
    .select({ id: customers.id, position: customers.position })
    .from(customers)
    .where(and(eq(customers.userId, userId), ne(customers.status, 'removed'), inArray(customers.id, ids)));
}

// ---- what openings need (features/openings, through wiring.ts) ----

/**
 * "This phone opted out of the business" in SQL over a user id and a phone (features/messaging's
 * sms_opt_outs, issue 24), handed over in wiring.ts: customers.opted_out mirrors it, and reads that pick whom
 * to text check it too, so a row that missed the mirror is skipped instead of refused later.
 */
export type PhoneOptedOut = (userId: SQL, phone: SQL) => SQL;

/** Customers an opening may text: waiting or already offered elsewhere, opted in (openings' offer policy orders them). */
export function alertCandidates(executor: Executor, userId: string, phoneOptedOut?: PhoneOptedOut) {
  return executor
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.userId, userId),
        inArray(customers.status, ['waiting', 'offered']),
        eq(customers.optedOut, false),
        phoneOptedOut
          ? sql`not ${phoneOptedOut(sql`${customers.userId}`, sql`${customers.phone}`)}`
          : undefined,
      ),
    );
}

/** A business's customers by id, whatever their status (the inbox lists conversations of removed ones too). */
export function customersByIds(executor: Executor, userId: string, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return executor
    .select()
    .from(customers)
    .where(and(eq(customers.userId, userId), inArray(customers.id, ids)));
}

/** The dashboard's customers: opt-outs in [lo, hi) (customers_user_opted_out_at_idx) and the waitlist's size now. */
export async function optOutsAndWaitlistSize(
  executor: Executor,
  range: { userId: string; lo: Date; hi: Date },
) {
  const [row] = await executor
    .select({
      optOuts: sql<number>`count(*) filter (where ${customers.optedOut} and ${customers.optedOutAt} >= ${range.lo.toISOString()}::timestamptz and ${customers.optedOutAt} < ${range.hi.toISOString()}::timestamptz)::int`,
      // Waiting now: not those texted an offer, booked or removed (issue 27).
      waitlistSize: sql<number>`count(*) filter (where ${customers.status} = 'waiting' and not ${customers.optedOut})::int`,
    })
    .from(customers)
    .where(eq(customers.userId, range.userId));
  return { optOuts: Number(row?.optOuts ?? 0), waitlistSize: Number(row?.waitlistSize ?? 0) };
}

/**
 * The dashboard's alerts per language (issue 28): the cancellation alerts texted in [lo, hi) (offers.sent_at),
 * by the language of the customer each went to; and whether any customer on the waitlist reads Spanish.
 */
export async function alertsByLanguage(executor: Executor, range: { userId: string; lo: Date; hi: Date }) {
  const lo = range.lo.toISOString();
  const hi = range.hi.toISOString();
  const alerts = sql`(select count(*) from offers o where o.customer_id = ${customers.id} and o.sent_at >= ${lo}::timestamptz and o.sent_at < ${hi}::timestamptz)`;
  const [row] = await executor
    .select({
      en: sql<number>`coalesce(sum(${alerts}) filter (where ${customers.language} = 'en'), 0)::int`,
      es: sql<number>`coalesce(sum(${alerts}) filter (where ${customers.language} = 'es'), 0)::int`,
      spanish: sql<boolean>`coalesce(bool_or(${customers.language} = 'es' and ${customers.status} <> 'removed'), false)`,
    })
    .from(customers)
    .where(eq(customers.userId, range.userId));
  return {
    alertsByLanguage: { en: Number(row?.en ?? 0), es: Number(row?.es ?? 0) },
    hasSpanishCustomers: Boolean(row?.spanish),
  };
}
