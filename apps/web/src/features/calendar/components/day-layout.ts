import type { CalendarDay } from '@waitlist/contract';

/** The hours always shown (the business day), widened when an event or opening falls outside them. */
export const DAY_START_HOUR = 8;
export const DAY_END_HOUR = 20;
export const SLOT_MINUTES = 30;

const PARTS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
};
/** The parts of an instant in the zone (the runtime's own zone when it does not know this one). */
const partsFormat = (timeZone: string) => {
  try {
    return new Intl.DateTimeFormat('en-CA', { ...PARTS, timeZone });
  } catch {
    return new Intl.DateTimeFormat('en-CA', PARTS);
  }
};

/** An instant as the business's wall clock: its date (YYYY-MM-DD) and minutes since that day's midnight. */
export function wallClock(iso: string, timeZone: string): { date: string; minutes: number } {
  const parts = Object.fromEntries(
    partsFormat(timeZone)
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    minutes: (Number(parts.hour) % 24) * 60 + Number(parts.minute),
  };
}

/** YYYY-MM-DD plus whole days (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1, (day ?? 1) + days)).toISOString().slice(0, 10);
}

export type DayBlock = {
  key: string;
  kind: 'event' | 'opening';
  title: string;
  /** Minutes since the day's midnight, clipped to the day. */
  start: number;
  end: number;
  status?: string;
  claimedBy?: string | null;
  openingId?: string;
};

/** The events and openings of one day, as blocks on its timeline. */
export function blocksOfDay(day: CalendarDay, date: string): DayBlock[] {
  const clip = (startIso: string, endIso: string) => {
    const start = wallClock(startIso, day.timeZone);
    const end = wallClock(endIso, day.timeZone);
    if (start.date > date || end.date < date) return null;
    const from = start.date < date ? 0 : start.minutes;
    const to = end.date > date ? 24 * 60 : end.minutes;
    return to > from ? { start: from, end: to } : null;
  };
  const blocks: DayBlock[] = [];
  day.events.forEach((event, index) => {
    const span = clip(event.startsAt, event.endsAt);
    if (span) blocks.push({ key: `event-${index}`, kind: 'event', title: event.title, ...span });
  });
  for (const opening of day.openings) {
    const ends = new Date(
      new Date(opening.startsAt).getTime() + opening.durationMinutes * 60_000,
    ).toISOString();
    const span = clip(opening.startsAt, ends);
    if (span) {
      blocks.push({
        key: `opening-${opening.id}`,
        kind: 'opening',
        title: opening.service,
        status: opening.status,
        claimedBy: opening.claimedBy,
        openingId: opening.id,
        ...span,
      });
    }
  }
  return blocks.sort((a, b) => a.start - b.start);
}

/** The hours shown: 8:00–20:00 at least, widened to whole hours around every block. */
export function hourRange(blocks: readonly DayBlock[]): { from: number; to: number } {
  let from = DAY_START_HOUR * 60;
  let to = DAY_END_HOUR * 60;
  for (const block of blocks) {
    from = Math.min(from, Math.floor(block.start / 60) * 60);
    to = Math.max(to, Math.ceil(block.end / 60) * 60);
  }
  return { from, to };
}

/** The half hours with nothing in them: where a tap opens a slot. */
export function freeSlots(blocks: readonly DayBlock[], range: { from: number; to: number }): number[] {
  const free: number[] = [];
  for (let start = range.from; start < range.to; start += SLOT_MINUTES) {
    const end = start + SLOT_MINUTES;
    if (!blocks.some((block) => block.start < end && block.end > start)) free.push(start);
  }
  return free;
}

/** 870 → "14:30", as the open-slot form's time field takes it. */
export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
