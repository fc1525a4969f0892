import { describe, expect, it } from 'vitest';
import { isGsm7, plainLetters, smsInfo, textAsSent, ucs2Culprit } from './sms-segments.ts';

describe('plainLetters (issue 28)', () => {
  it('writes the accented letters GSM-7 lacks without their accent', () => {
    expect(plainLetters('á í ó ú Á Í Ó Ú')).toBe('a i o u A I O U');
    expect(plainLetters('¡Sí! Se liberó una cita el mié o el sáb.')).toBe(
      '¡Si! Se libero una cita el mié o el sab.',
    );
    expect(plainLetters('Ç ç â ê ô È')).toBe('Ç c a e o E');
  });

  it('keeps the letters and signs GSM-7 holds, and everything that is not a letter', () => {
    const kept = 'ñ Ñ é É ü Ü à è ù ì ò ¿ ¡ Ä Ö ä ö å Å ø Ø § £ €';
    expect(isGsm7(kept)).toBe(true);
    expect(plainLetters(kept)).toBe(kept);
    expect(plainLetters('Barbería 💈 “Oro”')).toBe('Barberia 💈 “Oro”');
    expect(plainLetters('')).toBe('');
  });

  it('turns a Spanish text with accents from UCS-2 into GSM-7', () => {
    const text = 'Hola Sofía, se liberó una cita: mié, 25 de nov a las 3:30 p.m. Responde SÍ para apartarla.';
    expect(smsInfo(text).encoding).toBe('UCS-2');
    expect(smsInfo(plainLetters(text)).encoding).toBe('GSM-7');
    expect(plainLetters(text)).toContain('Sofia');
    expect(plainLetters(text)).toContain('Responde SI para');
  });
});

describe('ucs2Culprit (issue 28)', () => {
  it('is null for a GSM-7 text, Spanish ñ é ü ¿ ¡ included', () => {
    expect(ucs2Culprit('¿Señor Müller? ¡Qué bien! {€}')).toBe(null);
    expect(ucs2Culprit('')).toBe(null);
  });

  it('names the first character that makes the text UCS-2', () => {
    expect(ucs2Culprit('Responde SÍ para apartarla')).toBe('Í');
    expect(ucs2Culprit('Hola, se liberó una cita el sáb')).toBe('ó');
    expect(ucs2Culprit('Don’t miss it')).toBe('’');
  });

  it('names an emoji whole, both halves of its surrogate pair', () => {
    const culprit = ucs2Culprit('Bella 💈 Barbers: a slot opened');
    expect(culprit).toBe('💈');
    expect(culprit).toHaveLength(2);
    expect(ucs2Culprit('Hi 👋🏽 there á')).toBe('👋');
  });

  it('names nothing once plain letters took the accents out', () => {
    expect(ucs2Culprit(plainLetters('Sí, mañana a las 3:00 en Peluquería Ángel'))).toBe(null);
  });
});

describe('textAsSent in Spanish', () => {
  it('ends a first Spanish text with the Spanish opt-out line, unless it already names ALTO', () => {
    expect(textAsSent('Hola', { firstText: true, locale: 'es' })).toBe(
      'Hola\nResponde ALTO para darte de baja',
    );
    expect(textAsSent('Hola. Responde ALTO para salir.', { firstText: true, locale: 'es' })).toBe(
      'Hola. Responde ALTO para salir.',
    );
    expect(textAsSent('Hola', { firstText: false, locale: 'es' })).toBe('Hola');
  });
});
