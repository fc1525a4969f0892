import { describe, expect, it } from 'vitest';
import { readLanguageSwitch, readReply } from './read-reply.ts';

const isClaim = (text: string) => readReply(text).claim;

describe('readReply in Spanish (issue 28): claims', () => {
  it.each([
    'sí',
    'Sí',
    'SÍ',
    'si',
    'Si!',
    'sí 👍',
    '👍 Sí.',
    'claro',
    'Claro que sí',
    'claro que si',
    'va',
    'Dale',
    'dale!!',
    'vale',
    'órale',
    'orale',
    'lo quiero',
    'Lo quiero!',
    'la quiero',
    'me apunto',
    'Me apunto 🙋‍♀️',
    'Sí, lo quiero',
    'si lo quiero',
    'Sí por favor',
    'si porfa',
    'sí, gracias',
    'dale, me la quedo',
    'ok, la tomo',
    'apártamela',
    'apartamela',
    'por supuesto',
    'cuenta conmigo',
    'para mí',
    'para mi',
    'sí sí',
    'yes por favor',
    'ok gracias',
  ])('"%s" claims', (text) => {
    expect(readReply(text)).toEqual({ keyword: null, claim: true, backOut: false });
  });

  it.each([
    'sí?',
    '¿sí?',
    '¿Lo quiero?',
    'no',
    'No gracias',
    'no puedo',
    'sí pero a las 5',
    'si pero no puedo',
    'claro que no',
    'nunca',
    'ni modo',
    'por favor',
    'gracias',
    'perfecto',
    'que sí',
    'sí llego tarde',
    'dale mañana',
    'sino',
    'yo',
    '',
    '👍',
  ])('"%s" does not claim', (text) => {
    expect(isClaim(text)).toBe(false);
  });
});

describe('readReply in Spanish: backing out', () => {
  it.each([
    'No puedo ir',
    'Lo siento, ya no puedo',
    'perdón, no voy a poder',
    'No podré ir',
    'no podre ir 😞',
    'Tengo que cancelar',
    'quiero cancelar mi cita',
    'Cancelar mi cita por favor',
    'ya no voy',
  ])('"%s" gives the slot back', (text) => {
    expect(readReply(text)).toEqual({ keyword: null, claim: false, backOut: true });
  });

  it.each(['no puedo', 'sí puedo ir', 'puedo ir', 'cancelado?'])('"%s" does not', (text) => {
    expect(readReply(text).backOut).toBe(false);
  });
});

describe('readReply: keywords in both languages', () => {
  it('reads the Spanish stop, help and join words carriers name, whole text only', () => {
    for (const word of ['ALTO', 'alto', 'Alto.', ' alto! '])
      expect(readReply(word)).toEqual({ keyword: 'stop', claim: false, backOut: false });
    for (const word of ['AYUDA', 'ayuda?', 'Ayuda']) expect(readReply(word).keyword).toBe('help');
    for (const word of ['UNIRME', 'unirme', 'Unirme María López', 'UNIRSE'])
      expect(readReply(word).keyword).toBe('join');
    for (const word of ['alto ahí', 'necesito ayuda con mi cita', 'no quiero unirme'])
      expect(readReply(word).keyword).toBe(null);
  });

  it('English STOP, START, HELP and JOIN always work, for every customer', () => {
    for (const word of ['STOP', 'stop', 'Cancel', 'QUIT', 'end', 'unsubscribe', 'stopall'])
      expect(readReply(word).keyword).toBe('stop');
    for (const word of ['START', 'Unstop']) expect(readReply(word).keyword).toBe('start');
    expect(readReply('HELP').keyword).toBe('help');
    expect(readReply('JOIN Ana').keyword).toBe('join');
  });

  it('no Spanish word without a carrier source opts out: PARAR, CANCELAR and sentences are free text', () => {
    expect(readReply('PARAR')).toEqual({ keyword: null, claim: false, backOut: false });
    expect(readReply('CANCELAR')).toEqual({ keyword: null, claim: false, backOut: false });
    expect(readReply('cancelar mi cita')).toEqual({ keyword: null, claim: false, backOut: true });
    expect(readReply('cancel my appointment')).toEqual({ keyword: null, claim: false, backOut: true });
  });

  it('a language word is neither a keyword nor a claim', () => {
    for (const word of ['ESPAÑOL', 'English', 'inglés'])
      expect(readReply(word)).toEqual({ keyword: null, claim: false, backOut: false });
  });
});

describe('readLanguageSwitch (issue 28)', () => {
  it.each([
    ['ESPAÑOL', 'es'],
    ['español', 'es'],
    ['Espanol!', 'es'],
    ['spanish', 'es'],
    ['ENGLISH', 'en'],
    ['English.', 'en'],
    ['INGLÉS', 'en'],
    ['ingles', 'en'],
  ] as const)('"%s" switches to %s', (text, locale) => {
    expect(readLanguageSwitch(text)).toBe(locale);
  });

  it.each(['español por favor', 'hablo español', 'STOP', 'sí', 'yes', ''])('"%s" does not switch', (text) => {
    expect(readLanguageSwitch(text)).toBe(null);
  });
});
