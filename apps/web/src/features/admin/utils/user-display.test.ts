import { describe, expect, it } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import {
  businessPhoneOf,
  formatAdminPhone,
  formatCreatedAt,
  fullName,
  numberStatusBadge,
  subscriptionStatusBadge,
} from './user-display.ts';

describe('formatAdminPhone', () => {
  it.each([
    ['5551234567', '+1 (555) 123-4567'],
    ['+15551234567', '+1 (555) 123-4567'],
    ['15551234567', '+1 (555) 123-4567'],
    ['(555) 123-4567', '+1 (555) 123-4567'],
    ['+442079460958', '+44 20 7946 0958'],
    ['12345', '12345'],
    ['', '—'],
    [null, '—'],
  ])('shows %s as %s', (stored, shown) => {
    expect(formatAdminPhone(stored)).toBe(shown);
  });

  it('uses the business details phone when the profile has none', () => {
    expect(
      businessPhoneOf(
        makeUser({
          businessPhone: '',
          businessVerification: { status: 'submitted', businessPhone: '5550001111' },
        }),
      ),
    ).toBe('5550001111');
  });
});

describe('badges', () => {
  it.each(['canceled', 'past_due'])('shows %s as danger', (status) => {
    expect(subscriptionStatusBadge(status).tone).toBe('danger');
  });

  it.each([
    ['active', 'Active', 'success'],
    ['trialing', 'Trialing', 'info'],
    ['trial_expired', 'Trial expired', 'warning'],
    ['unpaid', 'Unpaid', 'warning'],
    ['paused_by_provider', 'Paused by provider', 'neutral'],
  ])('shows %s as %s (%s)', (status, label, tone) => {
    expect(subscriptionStatusBadge(status)).toEqual({ label, tone });
  });

  it('shows the dedicated number status, or nothing without a number', () => {
    expect(numberStatusBadge('pending')).toEqual({ label: 'Pending', tone: 'warning' });
    expect(numberStatusBadge('verified')).toEqual({ label: 'Verified', tone: 'success' });
    expect(numberStatusBadge('failed')).toEqual({ label: 'Failed', tone: 'danger' });
    expect(numberStatusBadge(null)).toBeNull();
  });
});

describe('names and dates', () => {
  it('joins the name, with a dash when there is none', () => {
    expect(fullName(makeUser({ firstName: 'Ada', lastName: 'Lovelace' }))).toBe('Ada Lovelace');
    expect(fullName(makeUser({ firstName: '', lastName: '' }))).toBe('—');
  });

  it('shows the creation date readably', () => {
    expect(formatCreatedAt('2030-03-15T12:00:00.000Z')?.short).toBe('Mar 15, 2030');
    expect(formatCreatedAt('not a date')).toBeNull();
  });
});
