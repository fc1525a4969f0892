import type { CalendarDay } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { addDays, blocksOfDay, freeSlots, hhmm, hourRange, wallClock } from './day-layout.ts';

const day = (overrides: Partial<CalendarDay> = {}): CalendarDay => ({
  date: '2026-03-10',
  days: 1,
  timeZone: 'America/New_York',
  events: [],
  openings: [],
  ...overrides,
});

describe('day view layout', () => {
  it('reads an instant on the business clock, not the phone’s', () => {
    expect(wallClock('2026-03-10T19:30:00Z', 'America/New_York')).toEqual({
      date: '2026-03-10',
      minutes: 15 * 60 + 30,
    });
    expect(wallClock('2026-03-11T02:00:00Z', 'America/New_York')).toEqual({
      date: '2026-03-10',
      minutes: 22 * 60,
    });
  });

  it('adds days across a month end', () => {
    expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('keeps only the blocks of that day, and clips one running past midnight', () => {
    const blocks = blocksOfDay(
      day({
        events: [
          {
            connectionId: 'c',
            title: 'Cut – Priya',
            startsAt: '2026-03-10T14:00:00Z',
            endsAt: '2026-03-10T15:00:00Z',
            ours: false,
          },
          {
            connectionId: 'c',
            title: 'Tomorrow',
            startsAt: '2026-03-11T14:00:00Z',
            endsAt: '2026-03-11T15:00:00Z',
            ours: false,
          },
          {
            connectionId: 'c',
            title: 'Late',
            startsAt: '2026-03-11T03:00:00Z',
            endsAt: '2026-03-11T06:00:00Z',
            ours: false,
          },
        ],
        openings: [
          {
            id: 'o1',
            startsAt: '2026-03-10T13:00:00Z',
            durationMinutes: 45,
            service: 'Color',
            status: 'filled',
            claimedBy: 'Ana R.',
          },
        ],
      }),
      '2026-03-10',
    );
    expect(blocks.map((block) => [block.title, block.start, block.end])).toEqual([
      ['Color', 9 * 60, 9 * 60 + 45],
      ['Cut – Priya', 10 * 60, 11 * 60],
      ['Late', 23 * 60, 24 * 60],
    ]);
  });

  it('shows 8:00–20:00, widened to whole hours around early and late blocks', () => {
    expect(hourRange([])).toEqual({ from: 480, to: 1200 });
    const early = { key: 'a', kind: 'event' as const, title: 'x', start: 6 * 60 + 30, end: 7 * 60 };
    const late = { key: 'b', kind: 'event' as const, title: 'y', start: 20 * 60, end: 21 * 60 + 15 };
    expect(hourRange([early, late])).toEqual({ from: 360, to: 22 * 60 });
  });

  it('offers only the half hours nothing covers', () => {
    const busy = { key: 'a', kind: 'event' as const, title: 'x', start: 9 * 60 + 15, end: 10 * 60 };
    const free = freeSlots([busy], { from: 8 * 60, to: 11 * 60 }).map(hhmm);
    expect(free).toEqual(['08:00', '08:30', '10:00', '10:30']);
  });
});
