import {
  DEFAULT_DAILY_OFFER_CAP,
  DEFAULT_SEND_WINDOW,
  type OfferSettings,
  type Service,
  type StaffMember,
} from '@waitlist/contract';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { offerSettings, services, staffMembers } from '../../db/schema.ts';

/**
 * The one home of `services`, `staff_members` and `offer_settings` (issue 26, decision 0008). Openings read
 * them through the functions below, handed over in composition.ts.
 */
export type ServiceRow = typeof services.$inferSelect;
export type StaffRow = typeof staffMembers.$inferSelect;

export const serviceDto = (row: ServiceRow): Service => ({
  id: row.id,
  name: row.name,
  durationMinutes: row.durationMinutes,
  priceCents: row.priceCents,
});
export const staffDto = (row: StaffRow): StaffMember => ({ id: row.id, name: row.name });

export function listServices(executor: Executor, userId: string) {
  return executor
    .select()
    .from(services)
    .where(eq(services.userId, userId))
    .orderBy(asc(sql`lower(${services.name})`));
}

/** How many services the business has (the limit is decided under the owner's row lock). */
export async function countServices(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(services)
    .where(eq(services.userId, userId));
  return row?.count ?? 0;
}

export async function findService(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(services)
    .where(and(eq(services.userId, userId), eq(services.id, id)));
  return row;
}

/** A service by name, any case (CSV import); undefined when the business has none of that name. */
export async function findServiceByName(executor: Executor, userId: string, name: string) {
  const [row] = await executor
    .select()
    .from(services)
    .where(and(eq(services.userId, userId), sql`lower(${services.name}) = lower(${name.trim()})`));
  return row;
}

export async function insertService(
  executor: Executor,
  values: { userId: string; name: string; durationMinutes: number; priceCents: number | null },
) {
  const [row] = await executor.insert(services).values(values).returning();
  return row!;
}

export async function updateService(
  executor: Executor,
  userId: string,
  id: string,
  values: { name: string; durationMinutes: number; priceCents: number | null },
) {
  const [row] = await executor
    .update(services)
    .set(values)
    .where(and(eq(services.userId, userId), eq(services.id, id)))
    .returning();
  return row;
}

export async function deleteService(executor: Executor, userId: string, id: string) {
  const rows = await executor
    .delete(services)
    .where(and(eq(services.userId, userId), eq(services.id, id)))
    .returning({ id: services.id });
  return rows.length > 0;
}

export function listStaff(executor: Executor, userId: string) {
  return executor
    .select()
    .from(staffMembers)
    .where(eq(staffMembers.userId, userId))
    .orderBy(asc(sql`lower(${staffMembers.name})`));
}

export async function countStaff(executor: Executor, userId: string) {
  const [row] = await executor
    .select({ count: sql<number>`count(*)::int` })
    .from(staffMembers)
    .where(eq(staffMembers.userId, userId));
  return row?.count ?? 0;
}

export async function findStaff(executor: Executor, userId: string, id: string) {
  const [row] = await executor
    .select()
    .from(staffMembers)
    .where(and(eq(staffMembers.userId, userId), eq(staffMembers.id, id)));
  return row;
}

export async function findStaffByName(executor: Executor, userId: string, name: string) {
  const [row] = await executor
    .select()
    .from(staffMembers)
    .where(and(eq(staffMembers.userId, userId), sql`lower(${staffMembers.name}) = lower(${name.trim()})`));
  return row;
}

export async function insertStaff(executor: Executor, values: { userId: string; name: string }) {
  const [row] = await executor.insert(staffMembers).values(values).returning();
  return row!;
}

export async function updateStaff(executor: Executor, userId: string, id: string, values: { name: string }) {
  const [row] = await executor
    .update(staffMembers)
    .set(values)
    .where(and(eq(staffMembers.userId, userId), eq(staffMembers.id, id)))
    .returning();
  return row;
}

export async function deleteStaff(executor: Executor, userId: string, id: string) {
  const rows = await executor
    .delete(staffMembers)
    .where(and(eq(staffMembers.userId, userId), eq(staffMembers.id, id)))
    .returning({ id: staffMembers.id });
  return rows.length > 0;
}

/** Services by id, for lists that show names (several ids, one statement). */
export function servicesByIds(executor: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as ServiceRow[]);
  return executor.select().from(services).where(inArray(services.id, ids));
}

export function staffByIds(executor: Executor, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([] as StaffRow[]);
  return executor.select().from(staffMembers).where(inArray(staffMembers.id, ids));
}

/** The owner's offer rules, or the defaults when they never changed them. */
export async function offerSettingsOf(executor: Executor, userId: string): Promise<OfferSettings> {
  const [row] = await executor.select().from(offerSettings).where(eq(offerSettings.userId, userId));
  return {
    sendFrom: row?.sendFrom ?? DEFAULT_SEND_WINDOW.from,
    sendUntil: row?.sendUntil ?? DEFAULT_SEND_WINDOW.until,
    dailyOfferCap: row?.dailyOfferCap ?? DEFAULT_DAILY_OFFER_CAP,
  };
}

export async function saveOfferSettings(
  executor: Executor,
  userId: string,
  values: OfferSettings,
  now: Date,
): Promise<OfferSettings> {
  await executor
    .insert(offerSettings)
    .values({ userId, ...values, updatedAt: now })
    .onConflictDoUpdate({ target: offerSettings.userId, set: { ...values, updatedAt: now } });
  return values;
}
