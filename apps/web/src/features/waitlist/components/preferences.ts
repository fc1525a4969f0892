import type { TimePreference } from '@waitlist/contract';
import { clockRange } from '../../../lib/clock.ts';

export const dayNames = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** "Mon, Wed 9:00 am–12:00 pm" for a row (the 12-hour clock of a US business); weekdays and weekends read as words. */
export function describePreference(preference: TimePreference): string {
  const days = [...preference.days].sort();
  const key = days.join(',');
  const label =
    key === '1,2,3,4,5'
      ? 'Weekdays'
      : key === '0,6'
        ? 'Weekends'
        : days.length === 7
          ? 'Every day'
          : days.map((day) => dayNames[day]?.slice(0, 3)).join(', ');
  return `${label} ${clockRange(preference.from, preference.to)}`;
}
