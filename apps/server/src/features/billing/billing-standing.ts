import { billingMessages } from '@waitlist/contract';

/**
 * Whether an account may use the paid side of the product (the waitlist issue limits the waitlist features
 * otherwise, keeping the data). Computed from the user's subscription fields, which billingService keeps in
 * sync with the provider:
 * - `past_due`: the last payment failed (also Stripe's `unpaid` and `incomplete`);
 * - `canceled`: a paid subscription ended;
 * - `trial_expired`: still on the free trial and its end has passed;
 * - `ok` otherwise (trial running, or a paid plan that is active, even when set to cancel at period end).
 */
export type BillingStanding = 'ok' | 'trial_expired' | 'past_due' | 'canceled';

export interface StandingUser {
  subscriptionPlan: string;
  subscriptionStatus: string;
  trialEndDate: Date | string | null;
}

export function billingStanding(user: StandingUser, now: Date): BillingStanding {
  switch (user.subscriptionStatus) {
    case 'past_due':
    case 'unpaid':
    case 'incomplete':
      return 'past_due';
    case 'canceled':
      return 'canceled';
  }
  if (user.subscriptionPlan !== 'free_trial') return 'ok';
  if (user.subscriptionStatus === 'trial_expired') return 'trial_expired';
  const trialEnd = user.trialEndDate === null ? null : new Date(user.trialEndDate);
  return trialEnd && trialEnd.getTime() <= now.getTime() ? 'trial_expired' : 'ok';
}

/** What to show the owner for a standing other than `ok` (why the features are limited and how to fix it). */
export function billingStandingMessage(standing: BillingStanding): string | null {
  switch (standing) {
    case 'trial_expired':
      return billingMessages.trialExpired;
    case 'past_due':
      return billingMessages.pastDue;
    case 'canceled':
      return billingMessages.canceled;
    default:
      return null;
  }
}

/** Why the owner's waitlist is read-only now (billing standing other than `ok`), or null. */
export function readOnlyReason(user: StandingUser, now: Date): string | null {
  const standing = billingStanding(user, now);
  return standing === 'ok' ? null : (billingStandingMessage(standing) ?? standing);
}
