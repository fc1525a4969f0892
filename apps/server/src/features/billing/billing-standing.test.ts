import { billingMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { billingStanding, billingStandingMessage } from './billing-standing.ts';

const now = new Date('2026-12-01T10:00:00Z');
const trialUser = (trialEndDate: string | null, subscriptionStatus = 'trialing') => ({
  subscriptionPlan: 'free_trial',
  subscriptionStatus,
  trialEndDate: trialEndDate === null ? null : new Date(trialEndDate),
});

describe('billingStanding', () => {
  it('is ok during the trial and trial_expired from its end', () => {
    expect(billingStanding(trialUser('2026-12-01T10:00:01Z'), now)).toBe('ok');
    expect(billingStanding(trialUser('2026-12-01T10:00:00Z'), now)).toBe('trial_expired');
    expect(billingStanding(trialUser('2026-12-08T10:00:00Z', 'trial_expired'), now)).toBe('trial_expired');
  });

  it('follows the subscription status of a paid plan', () => {
    const paid = (subscriptionStatus: string) => ({
      subscriptionPlan: 'growth',
      subscriptionStatus,
      trialEndDate: null,
    });
    expect(billingStanding(paid('active'), now)).toBe('ok');
    expect(billingStanding(paid('past_due'), now)).toBe('past_due');
    expect(billingStanding(paid('unpaid'), now)).toBe('past_due');
    expect(billingStanding(trialUser('2026-11-01T00:00:00Z', 'canceled'), now)).toBe('canceled');
  });

  it('has a message for each limited standing', () => {
    expect(billingStandingMessage('ok')).toBeNull();
    expect(billingStandingMessage('trial_expired')).toBe(billingMessages.trialExpired);
    expect(billingStandingMessage('past_due')).toBe(billingMessages.pastDue);
    expect(billingStandingMessage('canceled')).toBe(billingMessages.canceled);
  });
});
