import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { pushSubscriptions, users, vapidKeys } from '../../db/schema.ts';

/** The push_subscriptions and vapid_keys tables' one home (decision 0008). */

export async function storedVapidKeys(
  executor: Executor,
  generated: { publicKey: string; privateKey: string },
) {
  await executor
    .insert(vapidKeys)
    .values({ id: 1, ...generated })
    .onConflictDoNothing();
  const [row] = await executor.select().from(vapidKeys).where(eq(vapidKeys.id, 1));
  return { publicKey: row!.publicKey, privateKey: row!.privateKey };
}

/** The devices to push to: none when the owner turned push off (reads users in the same statement). */
export function subscriptionsToNotify(executor: Executor, userId: string) {
  return executor
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .where(and(eq(pushSubscriptions.userId, userId), eq(users.pushNotificationsEnabled, true)));
}

/**
 * Stores the subscription for `userId`, or refreshes its keys when it is already theirs. An endpoint that
 * belongs to another user is left alone (never moved between accounts, issue 24): undefined then. The
 * unique index on endpoint decides, so two accounts posting one endpoint at once cannot both get it.
 */
export async function upsertOwnSubscription(
  executor: Executor,
  values: { userId: string; endpoint: string; p256dh: string; auth: string; platform: string | null },
) {
  const [row] = await executor
    .insert(pushSubscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { p256dh: values.p256dh, auth: values.auth, platform: values.platform },
      setWhere: eq(pushSubscriptions.userId, values.userId),
    })
    .returning({ id: pushSubscriptions.id });
  return row;
}

export function deleteSubscriptions(executor: Executor, userId: string, endpoint: string | undefined) {
  // and() drops the undefined condition: one device's subscription, or every one of the user's.
  return executor
    .delete(pushSubscriptions)
    .where(
      and(
        eq(pushSubscriptions.userId, userId),
        endpoint ? eq(pushSubscriptions.endpoint, endpoint) : undefined,
      ),
    );
}

export async function findSubscription(executor: Executor, id: string) {
  const [row] = await executor.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, id));
  return row;
}

export function deleteSubscription(executor: Executor, id: string) {
  return executor.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}
