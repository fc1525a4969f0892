import { describe, expect, it } from 'vitest';
import { formatMinutes, formatMoney, formatPercent } from './format.ts';

describe('dashboard formatting', () => {
  it('says a claim within the minute is under a minute, not "0 min"', () => {
    expect(formatMinutes(0.2, 'en-US')).toBe('< 1 min');
    expect(formatMinutes(12, 'en-US')).toBe('12 min');
    expect(formatMinutes(90, 'en-US')).toBe('1.5 hr');
    expect(formatMinutes(null, 'en-US')).toBe('—');
  });

  it('formats money from cents and ratios as percentages', () => {
    expect(formatMoney(8550, 'en-US')).toBe('$85.50');
    expect(formatPercent(0.75, 'en-US')).toBe('75%');
  });
});
