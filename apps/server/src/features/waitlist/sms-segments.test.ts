import { isGsm7, smsInfo, smsSegments, smsWarnings } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';

describe('SMS segments', () => {
  it('counts GSM-7 texts: 160 in one segment, 153 per segment after', () => {
    expect(smsInfo('')).toMatchObject({ encoding: 'GSM-7', segments: 0 });
    expect(smsInfo('a'.repeat(160))).toMatchObject({ encoding: 'GSM-7', segments: 1, remaining: 0 });
    expect(smsInfo('a'.repeat(161))).toMatchObject({ segments: 2, perSegment: 153 });
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('a'.repeat(307))).toBe(3);
    expect(isGsm7('Hé! £5 @ Ça va? ÄÖÑÜ')).toBe(true);
  });

  it('counts the GSM extension table as two characters', () => {
    expect(smsInfo('€'.repeat(80))).toMatchObject({ encoding: 'GSM-7', length: 160, segments: 1 });
    expect(smsInfo(`${'a'.repeat(159)}{`)).toMatchObject({ length: 161, segments: 2 });
    // An escape pair is never split: 152 + '[' does not fit the first 153 and moves whole.
    expect(smsInfo(`${'a'.repeat(152)}[${'a'.repeat(152)}`)).toMatchObject({ length: 306, segments: 3 });
  });

  it('switches to UCS-2 for anything outside GSM-7: 70, then 67 per segment', () => {
    expect(smsInfo('Hi 😀')).toMatchObject({ encoding: 'UCS-2', length: 5, segments: 1 });
    expect(smsInfo('ç'.repeat(70))).toMatchObject({ encoding: 'UCS-2', segments: 1 });
    expect(smsInfo('ç'.repeat(71))).toMatchObject({ segments: 2, perSegment: 67 });
    expect(smsSegments('ç'.repeat(134))).toBe(2);
    expect(smsSegments('ç'.repeat(135))).toBe(3);
    // A surrogate pair is never split across segments.
    expect(smsSegments(`${'a'.repeat(66)}😀${'a'.repeat(66)}`)).toBe(3);
  });

  it('warns about links, URL shorteners and long texts', () => {
    expect(smsWarnings('See you at 3pm')).toEqual([]);
    expect(smsWarnings('Book at https://bella.example.com/book').map((w) => w.code)).toEqual(['link']);
    expect(smsWarnings('Visit www.bellasalon.com').map((w) => w.code)).toEqual(['link']);
    expect(smsWarnings('Claim: bit.ly/abc').map((w) => w.code)).toEqual(['url_shortener']);
    expect(smsWarnings('https://tinyurl.com/xyz').map((w) => w.code)).toEqual(['url_shortener']);
    expect(smsWarnings('a'.repeat(161)).map((w) => w.code)).toEqual(['multiple_segments']);
    expect(smsWarnings('a'.repeat(161))[0]!.message).toContain('2 segments');
  });
});
