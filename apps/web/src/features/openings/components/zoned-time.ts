import { formatInZone } from '../../../lib/clock.ts';
import { formatCents } from '../../../lib/money.ts';

/** Dates and times as the business reads them: in its own time zone, whatever the phone's, on the 12-hour clock. */
export { formatInZone };

export const slotTime = (iso: string, timeZone: string) =>
  formatInZone(iso, timeZone, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

export const clockTime = (iso: string, timeZone: string) =>
  formatInZone(iso, timeZone, { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });

/** YYYY-MM-DD of "now" in the zone (the date input's default). */
export function todayInZone(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** When the alerts count starts again: "tonight at midnight (EST)", or the day and time when further off. */
export function resetsAtLabel(iso: string, timeZone: string, now = new Date()): string {
  const resetDay = todayInZone(timeZone, new Date(iso));
  const today = todayInZone(timeZone, now);
  const tomorrow = todayInZone(timeZone, new Date(now.getTime() + 86_400_000));
  const when = clockTime(iso, timeZone);
  const midnight = /^12:00\sam\s?/;
  if (resetDay === tomorrow && midnight.test(when))
    return `tonight at midnight (${when.replace(midnight, '')})`;
  if (resetDay === today) return `today at ${when}`;
  return `${formatInZone(iso, timeZone, { weekday: 'long' })} at ${when}`;
}

/** An opening's price, always with cents ($45.00). */
export const money = (cents: number) => formatCents(cents);
