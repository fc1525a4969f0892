import { describe, expect, it } from 'vitest';
import { clockLabel, clockRange, formatInZone } from './clock.ts';

describe('the 12-hour clock of a US business', () => {
  it('reads a wall-clock time with a lowercase am/pm', () => {
    expect(clockLabel('09:00')).toBe('9:00 am');
    expect(clockLabel('17:00')).toBe('5:00 pm');
    expect(clockLabel('00:30')).toBe('12:30 am');
    expect(clockLabel('12:05')).toBe('12:05 pm');
  });

  it('reads a preference as a range', () => {
    expect(clockRange('09:00', '17:00')).toBe('9:00 am–5:00 pm');
  });

  it('leaves what is not a time as given', () => {
    expect(clockLabel('soon')).toBe('soon');
    expect(clockLabel('25:00')).toBe('25:00');
  });

  it('formats an instant in the business zone, 12-hour, whatever the options', () => {
    const iso = '2030-01-03T18:04:00.000Z';
    expect(formatInZone(iso, 'America/New_York', { hour: 'numeric', minute: '2-digit' })).toBe('1:04 pm');
    expect(
      formatInZone(iso, 'Europe/Paris', { hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }),
    ).toBe('7:04 pm GMT+1');
    expect(
      formatInZone(iso, 'America/Chicago', {
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }),
    ).toBe('Jan 3, 12:04 pm');
  });

  it('falls back to the phone zone when the zone is not valid', () => {
    expect(
      formatInZone('2030-01-03T18:04:00.000Z', 'Not/AZone', { hour: 'numeric', minute: '2-digit' }),
    ).toMatch(/^\d{1,2}:04 [ap]m$/);
  });

  it('leaves a date without a time alone', () => {
    expect(formatInZone('2030-01-03T18:04:00.000Z', 'America/New_York', { weekday: 'long' })).toBe(
      'Thursday',
    );
  });
});
