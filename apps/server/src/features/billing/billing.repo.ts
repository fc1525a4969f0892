import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { users, webhookEvents } from '../../db/schema.ts';

export type { UserRow };

/** The subscription fields of a user: a cache of the provider's subscription (SPEC §3 "User"). */
export type SubscriptionFields = Pick<
  UserRow,
  'subscriptionPlan' | 'subscriptionPeriod' | 'subscriptionStatus' | 'currentPeriodEnd'
>;

export async function findUserById(executor: Executor, id: string) {
  const [user] = await executor.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

export async function findUserByCustomerId(executor: Executor, customerId: string) {
  const [user] = await executor.select().from(users).where(eq(users.billingCustomerId, customerId)).limit(1);
  return user;
}

/** Stores the provider's customer id unless one is there already (two first calls at once keep one). */
export async function setCustomerIdIfMissing(executor: Executor, userId: string, customerId: string) {
  const [user] = await executor
    .update(users)
    .set({ billingCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.billingCustomerId)))
    .returning();
  return user;
}

/** Reads the user locked, so a sync and the transition email it may send happen once. */
export async function findUserByCustomerIdForUpdate(executor: Executor, customerId: string) {
  const [user] = await executor
    .select()
    .from(users)
    .where(eq(users.billingCustomerId, customerId))
    .for('update')
    .limit(1);
  return user;
}

export async function updateSubscriptionFields(
  executor: Executor,
  userId: string,
  fields: SubscriptionFields,
  now: Date,
) {
  const [user] = await executor
    .update(users)
    .set({ ...fields, updatedAt: now })
    .where(eq(users.id, userId))
    .returning();
  return user;
}

/** Marks trials that ended by `now` (and never became a paid plan): subscriptionStatus 'trial_expired'. */
export function expireTrials(executor: Executor, now: Date) {
  return executor
    .update(users)
    .set({ subscriptionStatus: 'trial_expired', updatedAt: now })
    .where(
      and(
        eq(users.subscriptionPlan, 'free_trial'),
        eq(users.subscriptionStatus, 'trialing'),
        lte(users.trialEndDate, now),
      ),
    )
    .returning({ id: users.id, email: users.email, firstName: users.firstName });
}

/** Whether a provider webhook event was already applied. */
export async function webhookEventSeen(executor: Executor, id: string) {
  const seen = await executor
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(eq(webhookEvents.id, id));
  return seen.length > 0;
}

/** Records a webhook event once; false when it was recorded already (a concurrent delivery won). */
export async function recordWebhookEvent(
  executor: Executor,
  event: { id: string; type: string; receivedAt: Date },
) {
  const recorded = await executor
    .insert(webhookEvents)
    .values(event)
    .onConflictDoNothing({ target: webhookEvents.id })
    .returning({ id: webhookEvents.id });
  return recorded.length > 0;
}
