import { describe, expect, it } from 'vitest';
import { shortName } from './day-timeline.tsx';

describe('who claimed a slot, on a narrow day view (issue 39)', () => {
  it('is the first name and the last name’s initial, so "Claimed by …" is never cut mid-name', () => {
    expect(shortName('Camila Reyes-Montenegro')).toBe('Camila R.');
    expect(shortName('  Isabella   de la Cruz ')).toBe('Isabella C.');
    expect(shortName('Cher')).toBe('Cher');
    expect(shortName('Ana R.')).toBe('Ana R.');
  });
});
