import type { CalendarDay } from '@waitlist/contract';
import type { CSSProperties } from 'react';
import { Link } from 'react-router';
import { clockLabel } from '../../../lib/clock.ts';
import {
  addDays,
  blocksOfDay,
  type DayBlock,
  freeSlots,
  hhmm,
  hourRange,
  SLOT_MINUTES,
} from './day-layout.ts';

/** Pixels per minute: an hour is 48 px, a half-hour gap a comfortable tap target. */
const PX = 0.8;

const dayLabel = (date: string) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));

/** "Isabella Ruiz-Montenegro" as a narrow block shows her: "Isabella R." (the full name is in its title). */
export function shortName(name: string): string {
  const parts = name.trim().split(/\s+/);
  return parts.length > 1 ? `${parts[0]} ${parts.at(-1)!.charAt(0)}.` : name.trim();
}

function openingState(block: DayBlock, whole = false): string {
  if (block.claimedBy) return `Claimed by ${whole ? block.claimedBy : shortName(block.claimedBy)}`;
  const labels: Record<string, string> = {
    open: 'Open',
    filled: 'Filled',
    expired: 'Expired',
    closed: 'Closed',
  };
  return labels[block.status ?? ''] ?? block.status ?? '';
}

function Block({ block, from }: { block: DayBlock; from: number }) {
  const height = Math.max((block.end - block.start) * PX, 18);
  const style: CSSProperties = { top: (block.start - from) * PX, height };
  // Under 45 minutes there is room for one line: the title and the time side by side.
  const short = height < 36 ? ' day-block--short' : '';
  const start = clockLabel(hhmm(block.start));
  const end = clockLabel(hhmm(block.end % (24 * 60)));
  const time = `${start}–${end}`;
  // A one-line block shows its start; its end is its height (and in the title).
  const shownTime = (
    <>
      {start}
      <span className="day-block__end">–{end}</span>
    </>
  );
  if (block.kind === 'event') {
    return (
      <div
        className={`day-block day-block--event${short}`}
        style={style}
        title={`${block.title}, ${time}`}
        data-testid="day-event"
      >
        <span className="day-block__title">{block.title}</span>
        <span className="day-block__time">{shownTime}</span>
      </div>
    );
  }
  const state = openingState(block);
  const tone = block.claimedBy ? 'claimed' : (block.status ?? 'open');
  return (
    <Link
      to={`/openings/${block.openingId}`}
      className={`day-block day-block--opening day-block--${tone}${short}`}
      style={style}
      title={`${block.title}, ${time}, ${openingState(block, true)}`}
      data-testid="day-opening"
    >
      {/* Issue 39: who claimed it has a line of its own ("Claimed by Isabella Ruiz" whole); on a one-line
          block the title and the time give way before it. */}
      <span className="day-block__head">
        <span className="day-block__title">{block.title}</span>
        <span className="day-block__time">{shownTime}</span>
      </span>
      <span className="day-block__state" data-testid="day-opening-state">
        <span className="day-block__sep"> · </span>
        {state}
      </span>
    </Link>
  );
}

function DayColumn({
  day,
  date,
  range,
  onGap,
}: {
  day: CalendarDay;
  date: string;
  range: { from: number; to: number };
  onGap: (date: string, time: string) => void;
}) {
  const blocks = blocksOfDay(day, date);
  const label = dayLabel(date);
  return (
    <section className="day-column" aria-label={label}>
      {day.days > 1 ? <h2 className="day-column__title">{label}</h2> : null}
      <div className="day-column__body" style={{ height: (range.to - range.from) * PX }}>
        {freeSlots(blocks, range).map((start) => (
          <button
            key={start}
            type="button"
            className="day-gap"
            style={{ top: (start - range.from) * PX, height: SLOT_MINUTES * PX }}
            aria-label={`Open a slot at ${clockLabel(hhmm(start))}, ${label}`}
            onClick={() => onGap(date, hhmm(start))}
          />
        ))}
        {blocks.map((block) => (
          <Block key={block.key} block={block} from={range.from} />
        ))}
      </div>
    </section>
  );
}

/** The day (or week) as a vertical timeline: calendar events grey, openings in colour, free half hours tappable. */
export function DayTimeline({
  day,
  onGap,
}: {
  day: CalendarDay;
  onGap: (date: string, time: string) => void;
}) {
  const dates = Array.from({ length: day.days }, (_, index) => addDays(day.date, index));
  const range = hourRange(dates.flatMap((date) => blocksOfDay(day, date)));
  const hours = Array.from({ length: (range.to - range.from) / 60 }, (_, index) => range.from + index * 60);
  return (
    <div className={`day-timeline${day.days > 1 ? ' day-timeline--week' : ''}`}>
      <div className="day-hours" aria-hidden="true" style={{ height: (range.to - range.from) * PX }}>
        {hours.map((minutes) => (
          <span key={minutes} className="day-hours__label" style={{ top: (minutes - range.from) * PX }}>
            {clockLabel(hhmm(minutes)).replace(':00', '')}
          </span>
        ))}
      </div>
      <div className="day-columns" style={{ gridTemplateColumns: `repeat(${day.days}, minmax(0, 1fr))` }}>
        {dates.map((date) => (
          <DayColumn key={date} day={day} date={date} range={range} onGap={onGap} />
        ))}
      </div>
    </div>
  );
}
