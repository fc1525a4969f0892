import { billingMessages } from '@waitlist/contract';
import type { LocalBillingProvider } from './local.ts';
import {
  customersWithDuePeriodEnds,
  liveSubscription,
  lockCustomer,
  type SubscriptionRow,
  updateSubscription,
} from './local-billing.repo.ts';
import type { LocalBillingContext } from './local-billing-clock.ts';
import { toSubscription } from './local-billing-dto.ts';
import { applyPeriodEnds, changePlanIn, type PeriodEndOutcome } from './local-subscriptions.ts';
import { PaymentError } from './payment-error.ts';

/**
 * The subscription calls of the local provider, each in its own transaction: reading it, plan changes,
 * cancel / resume, and the period ends the billing worker applies. The rules are in local-subscriptions.ts.
 */
export function localSubscriptionCalls(
  ctx: LocalBillingContext,
): Pick<
  LocalBillingProvider,
  'getSubscription' | 'changePlan' | 'cancelAtPeriodEnd' | 'resume' | 'applyDuePeriodEnds'
> {
  const { db } = ctx;

  /** Cancelling and resuming: the customer's live subscription changed, or not_found when there is none. */
  function changeLiveSubscription(
    customerId: string,
    changes: Pick<SubscriptionRow, 'cancelAtPeriodEnd'> &
      Partial<Pick<SubscriptionRow, 'pendingPlan' | 'pendingBillingPeriod'>>,
  ) {
    return db.transaction(async (tx) => {
      await lockCustomer(tx, customerId);
      const current = await liveSubscription(tx, customerId);
      if (!current) throw new PaymentError(billingMessages.noSubscription, 'not_found');
      return toSubscription(await updateSubscription(tx, current.id, changes));
    });
  }

  return {
    async getSubscription(customerId) {
      const row = await liveSubscription(db, customerId);
      return row ? toSubscription(row) : null;
    },

    changePlan(customerId, change, idempotencyKey) {
      return db.transaction((tx) => changePlanIn(ctx, tx, customerId, change, idempotencyKey));
    },

    cancelAtPeriodEnd(customerId) {
      // Cancelling withdraws a scheduled downgrade: nothing follows the end of this period.
      return changeLiveSubscription(customerId, {
        cancelAtPeriodEnd: true,
        pendingPlan: null,
        pendingBillingPeriod: null,
      });
    },

    resume(customerId) {
      return changeLiveSubscription(customerId, { cancelAtPeriodEnd: false });
    },

    async applyDuePeriodEnds() {
      const now = await ctx.billingNow(db);
      const outcomes: PeriodEndOutcome[] = [];
      const seen = new Set<string>();
      for (;;) {
        const due = await customersWithDuePeriodEnds(db, now, 50);
        const fresh = due.filter((row) => !seen.has(row.customerId));
        if (fresh.length === 0) return outcomes;
        for (const { customerId } of fresh) {
          seen.add(customerId);
          outcomes.push(...(await db.transaction((tx) => applyPeriodEnds(ctx, tx, customerId, now))));
        }
      }
    },
  };
}
