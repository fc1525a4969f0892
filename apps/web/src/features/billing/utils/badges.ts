import type { Subscription, User } from '@waitlist/contract';
import { trialDaysRemaining } from './billing-time.ts';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';
export type StatusBadge = { label: string; tone: BadgeTone };

const statusBadges: Record<string, StatusBadge> = {
  active: { label: 'Active', tone: 'success' },
  trialing: { label: 'Free Trial', tone: 'info' },
  past_due: { label: 'Past Due', tone: 'danger' },
  canceled: { label: 'Canceled', tone: 'danger' },
  incomplete: { label: 'Incomplete', tone: 'warning' },
  unpaid: { label: 'Unpaid', tone: 'danger' },
};

export function subscriptionStatusBadge(status: string, cancelAtPeriodEnd = false): StatusBadge {
  if (cancelAtPeriodEnd && status === 'active') return { label: 'Cancels at period end', tone: 'warning' };
  return statusBadges[status] ?? { label: status.replaceAll('_', ' '), tone: 'neutral' };
}

/** The free trial's badge: Free Trial with the days left, or Expired at 0 (SPEC §4). */
export function trialBadge(trialEndDate: string | null, now: Date): StatusBadge {
  const days = trialDaysRemaining(trialEndDate, now);
  if (days === 0) return { label: 'Expired', tone: 'danger' };
  if (days === null) return { label: 'Free Trial', tone: 'info' };
  return { label: `Free Trial · ${days} ${days === 1 ? 'day' : 'days'} left`, tone: 'info' };
}

export const textNumberPendingBadge: StatusBadge = {
  label: 'Text Number Verification Pending',
  tone: 'warning',
};

/**
 * SPEC §4 badge variants for the account: the trial's (days left or Expired) or the paid
 * subscription's status, plus Text Number Verification Pending while the number is pending.
 */
export function accountBadges(user: User, subscription: Subscription | null, now: Date): StatusBadge[] {
  const badges: StatusBadge[] = [];
  if (subscription) {
    badges.push(subscriptionStatusBadge(subscription.status, subscription.cancel_at_period_end));
  } else if (user.subscriptionPlan === 'free_trial') {
    badges.push(trialBadge(user.trialEndDate, now));
  } else {
    badges.push(subscriptionStatusBadge(user.subscriptionStatus));
  }
  if (user.plivoNumberStatus === 'pending') badges.push(textNumberPendingBadge);
  return badges;
}
