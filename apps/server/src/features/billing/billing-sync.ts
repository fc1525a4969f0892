import type { Subscription } from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { SubscriptionFields, UserRow } from '../../db/rows.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import type { EmailMessage } from '../../providers/email/index.ts';
import { paymentFailedEmail, subscriptionEndedEmail } from './billing.emails.ts';
import type { BillingServiceDeps } from './billing.service.ts';

/**
 * The one place the user's subscription fields change: after a call, in the renewal worker and in the
 * Stripe webhooks. The owner is emailed on the way into past_due and when a paid subscription ends.
 * Returns the user, or null when no user has this customer id. `executor`: an open transaction to run in.
 */
export type SyncSubscription = (
  customerId: string,
  subscription: Subscription | null,
  executor?: Executor,
) => Promise<UserRow | null>;

/**
 * The user's subscription fields for a provider subscription (null, or a canceled one: back to the trial
 * plan).
 */
function subscriptionFields(user: UserRow, subscription: Subscription | null): SubscriptionFields {
  if (!subscription || subscription.status === 'canceled') {
    const ended =
      subscription?.status === 'canceled' ||
      user.subscriptionPlan !== 'free_trial' ||
      user.subscriptionStatus === 'canceled';
    return {
      subscriptionPlan: 'free_trial',
      subscriptionPeriod: null,
      subscriptionStatus: ended ? 'canceled' : user.subscriptionStatus,
      currentPeriodEnd: null,
    };
  }
  return {
    subscriptionPlan: subscription.plan,
    subscriptionPeriod: subscription.billingPeriod,
    subscriptionStatus: subscription.status,
    currentPeriodEnd: new Date(subscription.current_period_end * 1000),
  };
}

function sameFields(user: UserRow, fields: SubscriptionFields) {
  return (
    user.subscriptionPlan === fields.subscriptionPlan &&
    user.subscriptionPeriod === fields.subscriptionPeriod &&
    user.subscriptionStatus === fields.subscriptionStatus &&
    (user.currentPeriodEnd?.getTime() ?? null) === (fields.currentPeriodEnd?.getTime() ?? null)
  );
}

export function createSubscriptionSync(
  deps: Pick<BillingServiceDeps, 'db' | 'clock' | 'users' | 'logger' | 'onOutboxWrite'> & {
    planUrl: string;
    billingUrl: string;
  },
): SyncSubscription {
  const { db, clock, users } = deps;
  return async (customerId, subscription, executor) => {
    let queued = false;
    // Inside the caller's transaction when given one (the Stripe webhook records the event id in it): the
    // sync becomes a savepoint and commits or rolls back with the caller.
    const user = await (executor ?? db).transaction(async (tx) => {
      const current = await users.findUserByBillingCustomerIdForUpdate(tx, customerId);
      if (!current) return null;
      const fields = subscriptionFields(current, subscription);
      if (sameFields(current, fields)) return current;
      const updated = await users.updateSubscriptionFields(tx, current.id, fields, clock.now());
      let email: EmailMessage | undefined;
      if (fields.subscriptionStatus === 'past_due' && current.subscriptionStatus !== 'past_due') {
        email = paymentFailedEmail(current, deps.billingUrl);
      } else if (fields.subscriptionStatus === 'canceled' && current.subscriptionPlan !== 'free_trial') {
        email = subscriptionEndedEmail(current, deps.planUrl);
      }
      if (email) {
        await enqueueEmail(tx, email, clock.now());
        queued = true;
      }
      return updated ?? current;
    });
    if (queued) deps.onOutboxWrite();
    if (!user) deps.logger.warn({ customerId }, 'billing sync: no user has this customer id');
    return user;
  };
}
