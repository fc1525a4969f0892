import { formatCents } from '../../../lib/money.ts';

/** The locale Intl falls back to when none is given: the reader's. */
const readerLocale = () => new Intl.NumberFormat().resolvedOptions().locale;

/** Money, percentages and dates of the dashboard, all through Intl, in the reader's locale unless one is given. */
export const formatMoney = (cents: number, locale?: string) =>
  formatCents(cents, { locale: locale ?? readerLocale() });

export const formatPercent = (ratio: number, locale?: string) =>
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(ratio);

export const formatCount = (value: number, locale?: string) => new Intl.NumberFormat(locale).format(value);

/** A local date (YYYY-MM-DD) as "Nov 23"; the date is a calendar day, so it is formatted in UTC. */
export const formatDay = (date: string, locale?: string) =>
  new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

export function formatMinutes(minutes: number | null, locale?: string): string {
  if (minutes === null) return '—';
  // A claim within the minute would read "0 min": say under a minute instead.
  if (minutes < 1) {
    return `< ${new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute' }).format(1)}`;
  }
  if (minutes < 60) {
    return new Intl.NumberFormat(locale, { style: 'unit', unit: 'minute', maximumFractionDigits: 1 }).format(
      minutes,
    );
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: 'hour', maximumFractionDigits: 1 }).format(
    minutes / 60,
  );
}
