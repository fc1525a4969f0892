/**
 * Wall-clock arithmetic in an IANA time zone with Intl only (the business's tz: openings and alerts per day).
 * Times a customer reads in a text are not formatted here: `formatSlotTime` in the contract's catalogue of
 * customer words writes them in the customer's language (issue 25).
 */

const formatters = new WeakMap<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/**
 * An en-US formatter of `options` in `timeZone`, built once per pair: building an Intl.DateTimeFormat costs
 * far more than formatting with one (issue 16: 3% of the inbound webhook's CPU). Pass a module-level options
 * object, so the cache keys on its identity.
 */
export function zonedFormat(options: Intl.DateTimeFormatOptions, timeZone: string): Intl.DateTimeFormat {
  let byZone = formatters.get(options);
  if (!byZone) {
    byZone = new Map();
    formatters.set(options, byZone);
  }
  let formatter = byZone.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    byZone.set(timeZone, formatter);
  }
  return formatter;
}

const PARTS: Intl.DateTimeFormatOptions = {
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  weekday: 'short',
};
const partsFormatter = (timeZone: string) => zonedFormat(PARTS, timeZone);

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday … 6. */
  weekday: number;
}

export function wallClock(instant: Date, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(timeZone).formatToParts(instant)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'),
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** YYYY-MM-DD of the instant in the time zone. */
export function localDate(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** HH:MM of the instant in the time zone. */
export function localTime(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

function offsetMs(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}

/** The instant when the wall clock in `timeZone` shows the given local time (a skipped DST hour moves forward). */
export function zonedToUtc(
  local: { year: number; month: number; day: number; hour?: number; minute?: number },
  timeZone: string,
): Date {
  const guess = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0);
  const first = guess - offsetMs(new Date(guess), timeZone);
  const second = guess - offsetMs(new Date(first), timeZone);
  return new Date(second);
}

/** The next local midnight after `instant` (when the alerts-per-day count resets). */
export function nextLocalMidnight(instant: Date, timeZone: string): Date {
  const w = wallClock(instant, timeZone);
  const tomorrow = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return zonedToUtc(
    { year: tomorrow.getUTCFullYear(), month: tomorrow.getUTCMonth() + 1, day: tomorrow.getUTCDate() },
    timeZone,
  );
}

/** 'YYYY-MM-DDTHH:mm' (local, read in the tz) or ISO 8601 with an offset/Z; null when neither. */
export function parseStartsAt(value: string, timeZone: string): Date | null {
  const local = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/.exec(value.trim());
  if (local) {
    const [, y, mo, d, h, mi] = local.map(Number) as number[];
    if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59) return null;
    return zonedToUtc({ year: y!, month: mo!, day: d!, hour: h!, minute: mi! }, timeZone);
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim()))
    return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Tue, Nov 24, 12:00 AM PST": how an instant reads to the owner (a customer's text: formatSlotTime). */
export function formatLocal(instant: Date, timeZone: string): string {
  return zonedFormat(LOCAL, timeZone).format(instant);
}
const LOCAL: Intl.DateTimeFormatOptions = {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
};

const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
/** How a slot reads in a push to the owner: "3:00 pm". */
export const pushTime = (instant: Date, timeZone: string) =>
  zonedFormat(CLOCK_TIME, timeZone).format(instant).replace(/\s/g, ' ').toLowerCase();
