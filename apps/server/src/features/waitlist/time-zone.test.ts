import { describe, expect, it } from 'vitest';
import { localDate, nextLocalMidnight, parseStartsAt } from '../../lib/time-zone.ts';
import { parseCsv } from './csv.ts';

describe('business time zone', () => {
  it('reads local times in the business time zone, across DST', () => {
    expect(parseStartsAt('2026-11-23T15:30', 'America/Los_Angeles')?.toISOString()).toBe(
      '2026-11-23T23:30:00.000Z',
    );
    expect(parseStartsAt('2026-07-01T15:30', 'America/Los_Angeles')?.toISOString()).toBe(
      '2026-07-01T22:30:00.000Z',
    );
    expect(parseStartsAt('2026-11-23T15:30:00-05:00', 'America/Los_Angeles')?.toISOString()).toBe(
      '2026-11-23T20:30:00.000Z',
    );
    expect(parseStartsAt('tomorrow', 'America/New_York')).toBeNull();
  });

  it('gives the local date and the next local midnight', () => {
    const instant = new Date('2026-11-24T02:00:00Z'); // 18:00 on the 23rd in Los Angeles
    expect(localDate(instant, 'America/Los_Angeles')).toBe('2026-11-23');
    expect(localDate(instant, 'UTC')).toBe('2026-11-24');
    expect(nextLocalMidnight(instant, 'America/Los_Angeles').toISOString()).toBe('2026-11-24T08:00:00.000Z');
  });

  it('parses CSV with quotes and CRLF', () => {
    expect(parseCsv('name,phone\r\n"Rossi, Bella","(212) 555-0100"\r\n"Say ""hi""",x')).toEqual([
      ['name', 'phone'],
      ['Rossi, Bella', '(212) 555-0100'],
      ['Say "hi"', 'x'],
    ]);
  });
});
