import { describe, expect, it } from 'vitest';
import type { CalendarEvent } from './calendar-event.ts';
import { detectChanges } from './changes.ts';

const NOW = new Date('2026-12-01T12:00:00Z');
const hoursFromNow = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);

function event(overrides: Partial<CalendarEvent> & { uid: string }): CalendarEvent {
  const start = overrides.start ?? hoursFromNow(3);
  return {
    recurrenceId: null,
    start,
    end: new Date(start.getTime() + 3_600_000),
    title: 'Cut – Priya',
    status: 'confirmed',
    attendees: 1,
    ours: false,
    ...overrides,
  };
}

const options = { now: NOW, horizonDays: 7, exclude: ['Lunch', 'Blocked'] };
const uids = (events: CalendarEvent[]) =>
  events.map((e) => `${e.uid}${e.recurrenceId ? `@${e.recurrenceId}` : ''}`);

describe('detectChanges', () => {
  it('reports a deleted, a cancelled and an attendee-less event as cancellations, the way they were', () => {
    const before = [
      event({ uid: 'deleted' }),
      event({ uid: 'cancelled' }),
      event({ uid: 'lost', attendees: 2 }),
    ];
    const after = [
      event({ uid: 'cancelled', status: 'cancelled' }),
      event({ uid: 'lost', attendees: 0, title: 'Cut – Priya (free)' }),
    ];
    const { cancellations, moves } = detectChanges(before, after, options);
    expect(uids(cancellations)).toEqual(['deleted', 'cancelled', 'lost']);
    expect(cancellations[2]).toBe(before[2]);
    expect(moves).toEqual([]);
  });

  it('leaves unchanged events, new events, fewer-but-some attendees and events that never had any alone', () => {
    const before = [
      event({ uid: 'same' }),
      event({ uid: 'fewer', attendees: 3 }),
      event({ uid: 'walk-in', attendees: 0 }),
    ];
    const after = [
      event({ uid: 'same' }),
      event({ uid: 'fewer', attendees: 1 }),
      event({ uid: 'walk-in', attendees: 0, title: 'Walk-in' }),
      event({ uid: 'new' }),
    ];
    expect(detectChanges(before, after, options)).toEqual({ cancellations: [], moves: [] });
  });

  it('reports the same event at a new time as a move, never a cancellation', () => {
    const before = [event({ uid: 'moved' }), event({ uid: 'longer' })];
    const moved = event({ uid: 'moved', start: hoursFromNow(27) });
    const longer = event({ uid: 'longer', end: hoursFromNow(5) });
    const { cancellations, moves } = detectChanges(before, [moved, longer], options);
    expect(cancellations).toEqual([]);
    expect(moves).toEqual([
      { from: before[0], to: moved },
      { from: before[1], to: longer },
    ]);
  });

  it('reports a move from the past into the horizon, and ignores one entirely outside it', () => {
    const before = [
      event({ uid: 'in', start: hoursFromNow(-3) }),
      event({ uid: 'far', start: hoursFromNow(24 * 20) }),
    ];
    const after = [
      event({ uid: 'in', start: hoursFromNow(4) }),
      event({ uid: 'far', start: hoursFromNow(24 * 21) }),
    ];
    expect(detectChanges(before, after, options).moves.map((m) => m.to.uid)).toEqual(['in']);
  });

  it('ignores events that have started, or start after the horizon; the horizon end itself counts', () => {
    const before = [
      event({ uid: 'started', start: hoursFromNow(-0.5) }),
      event({ uid: 'right-now', start: NOW }),
      event({ uid: 'at-horizon', start: hoursFromNow(24 * 7) }),
      event({ uid: 'past-horizon', start: new Date(hoursFromNow(24 * 7).getTime() + 1) }),
    ];
    expect(uids(detectChanges(before, [], options).cancellations)).toEqual(['at-horizon']);
    expect(uids(detectChanges(before, [], { ...options, horizonDays: 8 }).cancellations)).toEqual([
      'at-horizon',
      'past-horizon',
    ]);
  });

  it('never counts events this app wrote, before or after', () => {
    const before = [event({ uid: 'ours', ours: true }), event({ uid: 'became-ours' })];
    const after = [event({ uid: 'became-ours', ours: true, status: 'cancelled' })];
    expect(detectChanges(before, after, options).cancellations).toEqual([]);
  });

  it('never counts excluded titles (whole word, any case or accents), and counts a title merely containing one', () => {
    const before = [
      event({ uid: 'lunch', title: 'LUNCH with Sam' }),
      event({ uid: 'blocked', title: 'Chair blocked' }),
      event({ uid: 'accented', title: 'Blocked' }),
      event({ uid: 'lunchbox', title: 'Lunchbox delivery' }),
      event({ uid: 'renamed', title: 'Cut' }),
    ];
    const after = [event({ uid: 'renamed', title: 'Blocked', status: 'cancelled' })];
    const changes = detectChanges(before, after, { ...options, exclude: ['lunch', 'blocked', 'Blöcked'] });
    expect(uids(changes.cancellations)).toEqual(['lunchbox']);
    expect(uids(detectChanges(before, after, { ...options, exclude: [] }).cancellations)).toHaveLength(5);
  });

  it('tells occurrences of a recurring event apart, and reports each instance at most once', () => {
    const monday = event({ uid: 'weekly', recurrenceId: '2026-12-02T15:00:00.000Z' });
    const tuesday = event({
      uid: 'weekly',
      recurrenceId: '2026-12-03T15:00:00.000Z',
      start: hoursFromNow(27),
    });
    const before = [monday, tuesday, monday, { ...tuesday }];
    const after = [tuesday, { ...monday, status: 'cancelled' as const }];
    const { cancellations } = detectChanges(before, after, options);
    expect(uids(cancellations)).toEqual(['weekly@2026-12-02T15:00:00.000Z']);
  });

  it('does not report an event that was already cancelled before', () => {
    const before = [event({ uid: 'old-news', status: 'cancelled' })];
    expect(detectChanges(before, [], options).cancellations).toEqual([]);
  });

  it('reports an event both moved and cancelled as a cancellation of the time it held', () => {
    const before = [event({ uid: 'both' })];
    const after = [event({ uid: 'both', start: hoursFromNow(30), status: 'cancelled' })];
    const changes = detectChanges(before, after, options);
    expect(changes.cancellations).toEqual(before);
    expect(changes.moves).toEqual([]);
  });
});
