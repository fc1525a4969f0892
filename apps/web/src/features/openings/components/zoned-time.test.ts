import { describe, expect, it } from 'vitest';
import { resetsAtLabel, todayInZone } from './zoned-time.ts';

describe('business time zone', () => {
  const now = new Date('2030-01-03T18:00:00.000Z'); // 1 PM in New York, 10 AM in Los Angeles

  it('says the alerts count resets tonight at midnight', () => {
    expect(resetsAtLabel('2030-01-04T05:00:00.000Z', 'America/New_York', now)).toBe(
      'tonight at midnight (EST)',
    );
    expect(resetsAtLabel('2030-01-04T08:00:00.000Z', 'America/Los_Angeles', now)).toBe(
      'tonight at midnight (PST)',
    );
  });

  it('names the day when the reset is further off', () => {
    expect(resetsAtLabel('2030-01-05T05:00:00.000Z', 'America/New_York', now)).toBe(
      'Saturday at 12:00 am EST',
    );
  });

  it('takes today from the business, not the phone', () => {
    const lateEvening = new Date('2030-01-04T03:30:00.000Z');
    expect(todayInZone('America/New_York', lateEvening)).toBe('2030-01-03');
    expect(todayInZone('Europe/Paris', lateEvening)).toBe('2030-01-04');
  });
});
