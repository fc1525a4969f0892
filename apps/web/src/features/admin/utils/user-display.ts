import { formatPhone, formatUsPhone, type User } from '@waitlist/contract';

export type BadgeTone = 'success' | 'warning' | 'danger' | 'info' | 'neutral';
export type StatusBadge = { label: string; tone: BadgeTone };

/** What an empty cell shows. */
export const EMPTY_CELL = '—';

/**
 * A phone in +1 format, "+1 (555) 123-4567" (SPEC §2 "Admin page"). Business phones are stored as
 * 10 digits and dedicated numbers in E.164; numbers outside North America keep their international form.
 */
export function formatAdminPhone(value: string | null | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (!trimmed) return EMPTY_CELL;
  const digits = trimmed.replace(/\D/g, '');
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  if (national.length === 10 && (!trimmed.startsWith('+') || trimmed.startsWith('+1'))) {
    return `+1 ${formatUsPhone(national)}`;
  }
  return trimmed.startsWith('+') ? formatPhone(trimmed) : trimmed;
}

/** The business phone, from the profile or, before the profile has one, from the business details step. */
export const businessPhoneOf = (user: User) => user.businessPhone || user.businessVerification.businessPhone;

export const fullName = (user: User) => `${user.firstName} ${user.lastName}`.trim() || EMPTY_CELL;

const subscriptionBadges: Record<string, StatusBadge> = {
  active: { label: 'Active', tone: 'success' },
  trialing: { label: 'Trialing', tone: 'info' },
  trial_expired: { label: 'Trial expired', tone: 'warning' },
  past_due: { label: 'Past due', tone: 'danger' },
  canceled: { label: 'Canceled', tone: 'danger' },
  incomplete: { label: 'Incomplete', tone: 'warning' },
  unpaid: { label: 'Unpaid', tone: 'warning' },
};

/** The subscription status as a badge; danger for canceled or past_due (SPEC §2 "Admin page"). */
export function subscriptionStatusBadge(status: string): StatusBadge {
  const known = subscriptionBadges[status];
  if (known) return known;
  const words = status.replaceAll('_', ' ').trim();
  return { label: words ? words[0]!.toUpperCase() + words.slice(1) : EMPTY_CELL, tone: 'neutral' };
}

const numberStatusBadges: Record<NonNullable<User['plivoNumberStatus']>, StatusBadge> = {
  pending: { label: 'Pending', tone: 'warning' },
  verified: { label: 'Verified', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
};

export const numberStatusBadge = (status: User['plivoNumberStatus']): StatusBadge | null =>
  status ? numberStatusBadges[status] : null;

const createdFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const createdTitleFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeStyle: 'short' });

/** "Mar 15, 2030" for the cell, with the full date and time for a tooltip; null for a bad date. */
export function formatCreatedAt(iso: string): { short: string; long: string } | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return { short: createdFormat.format(date), long: createdTitleFormat.format(date) };
}
