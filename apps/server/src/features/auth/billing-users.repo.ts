import { and, eq, isNull, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { SubscriptionFields } from '../../db/rows.ts';
import { users } from '../../db/schema.ts';

/**
 * The subscription cache on `users` (features/billing reads and sets it through wiring.ts's billingUsers).
 */

export async function findUserByBillingCustomerId(executor: Executor, customerId: string) {
  const [user] = await executor.select().from(users).where(eq(users.billingCustomerId, customerId)).limit(1);
  return user;
}

/** Stores the provider's customer id unless one is there already (two first calls at once keep one). */
export async function setBillingCustomerIdIfMissing(executor: Executor, userId: string, customerId: string) {
  const [user] = await executor
    .update(users)
    .set({ billingCustomerId: customerId })
    .where(and(eq(users.id, userId), isNull(users.billingCustomerId)))
    .returning();
  return user;
}

/** Reads the user locked, so a sync and the transition email it may send happen once. */
export async function findUserByBillingCustomerIdForUpdate(executor: Executor, customerId: string) {
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
