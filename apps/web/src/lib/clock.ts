/**
 * Times as a US business reads them: the 12-hour clock with a lowercase "am"/"pm" ("9:00 am–5:00 pm"),
 * in the business's time zone. The one place the web formats a time of day; inputs of type="time" stay
 * native.
 */

const twelveHour = { hour12: true } as const;

/** "9:00 AM" → "9:00 am" (the narrow space some engines put before AM becomes a plain one). */
const lowerHalf = (text: string) =>
  text.replace(/[\s\u202f]?([AP])M\b/g, (_, half: string) => ` ${half.toLowerCase()}m`);

/** An instant in the given zone (the phone's own if the zone is unknown or not valid), 12-hour when it has a time. */
export function formatInZone(
  iso: string | Date,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  const withClock = options.hour === undefined ? options : { ...options, ...twelveHour };
  try {
    return lowerHalf(new Intl.DateTimeFormat('en-US', { timeZone, ...withClock }).format(date));
  } catch {
    return lowerHalf(new Intl.DateTimeFormat('en-US', withClock).format(date));
  }
}

const wallClock = new Intl.DateTimeFormat('en-US', {
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'UTC',
  ...twelveHour,
});

/** A wall-clock time "HH:MM" (as a time input gives it) → "9:00 am"; anything else is shown as given. */
export function clockLabel(hhmm: string): string {
  const match = /^(\d{1,2}):(\d{2})/.exec(hhmm);
  if (!match) return hhmm;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (hours > 23 || minutes > 59) return hhmm;
  return lowerHalf(wallClock.format(new Date(Date.UTC(2000, 0, 1, hours, minutes))));
}

/** "09:00", "17:00" → "9:00 am–5:00 pm". */
export const clockRange = (from: string, to: string) => `${clockLabel(from)}–${clockLabel(to)}`;
