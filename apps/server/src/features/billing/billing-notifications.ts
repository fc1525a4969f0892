import { planLabels } from '@waitlist/contract';
import type { UserRow } from '../../db/rows.ts';
import { formatDate } from '../../lib/format.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import type { EmailMessage } from '../../providers/email/index.ts';
import { billingUpdateEmail, planCancelEmail, planChangeEmail } from './billing.emails.ts';
import type { BillingContext } from './billing-context.ts';

export type BillingNotification =
  | { kind: 'plan-change'; oldPlan: string; newPlan: string }
  | { kind: 'plan-cancel' }
  | { kind: 'billing-update' };

/** Plan values the web sends in notifications (STARTER, growth, free_trial…) as the owner reads them. */
function displayPlan(value: string): string {
  const key = value.trim().toLowerCase();
  return key in planLabels ? planLabels[key as keyof typeof planLabels] : value.trim();
}

/** POST /notifications/*: one email to the owner through the outbox (the web calls these after a change). */
export async function notifyOwner(ctx: BillingContext, user: UserRow, notification: BillingNotification) {
  const { provider, billingUrl } = ctx;
  await ctx.limiter.consume('billingNotificationAccount', user.id);
  const customerId = await ctx.existingCustomer(user);
  const subscription =
    customerId && notification.kind !== 'billing-update'
      ? await provider.getSubscription(customerId).catch(() => null)
      : null;
  let email: EmailMessage;
  if (notification.kind === 'plan-change') {
    const pending = subscription?.pending_change;
    email = planChangeEmail(
      user,
      {
        oldPlan: displayPlan(notification.oldPlan),
        newPlan: displayPlan(notification.newPlan),
        detail: pending
          ? `The change takes effect on ${formatDate(new Date(pending.effective_at * 1000))}, at the end of your current billing period.`
          : null,
      },
      billingUrl,
    );
  } else if (notification.kind === 'plan-cancel') {
    const until =
      subscription?.cancel_at_period_end === true
        ? formatDate(new Date(subscription.current_period_end * 1000))
        : null;
    email = planCancelEmail(user, until, ctx.planUrl);
  } else {
    email = billingUpdateEmail(user, billingUrl);
  }
  await ctx.withOutbox((tx) => enqueueEmail(tx, email, ctx.clock.now()));
}
