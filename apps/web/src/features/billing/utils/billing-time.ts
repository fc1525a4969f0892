import { type BillingPeriod, PERIOD_FALLBACK_DAYS, SECONDS_TIMESTAMP_LIMIT } from '@waitlist/contract';

const DAY_MS = 86_400_000;

/**
 * SPEC §9: a number below about 4.1 billion is Unix seconds (Stripe's unit), above it milliseconds.
 * Strings are read as ISO dates (the user's trialEndDate, currentPeriodEnd) or as numbers.
 */
export function timestampToDate(value: number | string | null | undefined): Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!trimmed) return null;
    if (/^\d+$/.test(trimmed)) return timestampToDate(Number(trimmed));
    const date = new Date(trimmed);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  if (!Number.isFinite(value) || value <= 0) return null;
  return new Date(value < SECONDS_TIMESTAMP_LIMIT ? value * 1000 : value);
}

type BillingDates = {
  current_period_end?: number | string | null;
  created?: number | string | null;
  billingPeriod?: BillingPeriod | null;
};

/** SPEC §9: the period end when known, else created + 30 days (monthly) or 365 days (yearly). */
export function nextBillingDate({ current_period_end, created, billingPeriod }: BillingDates): Date | null {
  const periodEnd = timestampToDate(current_period_end);
  if (periodEnd) return periodEnd;
  const start = timestampToDate(created);
  if (!start) return null;
  return new Date(start.getTime() + PERIOD_FALLBACK_DAYS[billingPeriod ?? 'monthly'] * DAY_MS);
}

/**
 * SPEC §4: days left is the day difference to trialEndDate, at least 0. Partial days count as a day,
 * so 0 means the trial has really ended (not "ends later today"). Null when the end is unknown.
 */
export function trialDaysRemaining(trialEndDate: string | null, now: Date): number | null {
  const end = timestampToDate(trialEndDate);
  if (!end) return null;
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

const dateFormat = new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric' });
const shortDateFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

export const formatDate = (date: Date) => dateFormat.format(date);
export const formatShortDate = (date: Date) => shortDateFormat.format(date);
