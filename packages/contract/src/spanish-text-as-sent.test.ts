import { describe, expect, it } from 'vitest';
import { smsInfo, spanishTextAsSent } from './sms-segments.ts';

describe('spanishTextAsSent (issue 28)', () => {
  const text = 'Hola Ana: se abrió un hueco el miércoles. ¿Lo quieres? Responde SÍ.';

  it('drops the accents GSM-7 lacks when the business writes plain letters, keeping ñ é ¿', () => {
    const sent = spanishTextAsSent(text, true);
    expect(sent).toBe('Hola Ana: se abrio un hueco el miércoles. ¿Lo quieres? Responde SI.');
    expect(smsInfo(sent).encoding).toBe('GSM-7');
  });

  it('sends the text as written when the setting is off', () => {
    expect(spanishTextAsSent(text, false)).toBe(text);
    expect(smsInfo(text).encoding).toBe('UCS-2');
  });
});
