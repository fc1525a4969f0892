import { describe, expect, it } from 'vitest';
import { smsInfo, textAsSent } from '../sms-segments.ts';
import { renderTemplate } from '../waitlist.messages.ts';
import { customerWords, LOCALES, type Locale } from './catalogue.ts';
import { formatSlotTime } from './slot-time.ts';

/**
 * Issue 39: the default Spanish texts cost what the English ones cost. Rendered with typical values (a
 * 12-letter business, a common first name, a slot as `formatSlotTime` writes it with a short service), every
 * default Spanish customer text is GSM-7 and no more segments than its English twin, on every weekday but
 * Saturday: "sábado" and its abbreviation "sáb" hold an á in any correct spelling, so a Saturday slot is UCS-2
 * unless the business turns "plain letters" on (then "sab").
 */
const BUSINESS = 'Studio Lumen';
const NAME = 'Maria';
const SERVICE: Record<Locale, string> = { en: "(Women's cut)", es: '(Corte de dama)' };
const ZONE = 'America/New_York';
/** Mon 23 Nov 2026 … Sun 29 Nov 2026 at 2:00 pm in New York (19:00 UTC). */
const WEEK = [23, 24, 25, 26, 27, 28, 29].map((day) => new Date(Date.UTC(2026, 10, day, 19, 0)));
const isSaturday = (at: Date) => at.getUTCDay() === 6;

function slot(locale: Locale, at: Date, withService: boolean): string {
  const time = formatSlotTime(at, ZONE, locale);
  return withService ? `${time} ${SERVICE[locale]}` : time;
}

/** Templates that answer an alert, so never a customer's first text (no opt-out footer). */
const AFTER_AN_ALERT = new Set(['claimed', 'already_filled']);

/** Every default customer text of `locale` as sent: server texts for the business, templates filled, first-text footer. */
function defaultTexts(locale: Locale, time: string): Record<string, string> {
  const words = customerWords(locale);
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(words.texts))
    out[`texts.${key}`] = typeof text === 'function' ? text(BUSINESS) : text;
  for (const [key, body] of Object.entries(words.templates))
    out[`templates.${key}`] = textAsSent(renderTemplate(body, { name: NAME, business: BUSINESS, time }), {
      firstText: !AFTER_AN_ALERT.has(key),
      locale,
    });
  return out;
}

describe('default Spanish texts cost what English ones cost (issue 39)', () => {
  for (const withService of [false, true])
    it(`every default Spanish text is GSM-7 and no longer in segments than English, ${withService ? 'with' : 'without'} a service`, () => {
      for (const at of WEEK.filter((day) => !isSaturday(day))) {
        const en = defaultTexts('en', slot('en', at, withService));
        const es = defaultTexts('es', slot('es', at, withService));
        for (const [key, text] of Object.entries(es)) {
          const info = smsInfo(text);
          expect(`${key}: ${info.encoding}`, text).toBe(`${key}: GSM-7`);
          expect(info.segments, `${key}: ${text}`).toBeLessThanOrEqual(smsInfo(en[key] ?? '').segments);
        }
      }
    });

  it('a Saturday slot is the one exception, and only because of "sáb"', () => {
    const saturday = slot('es', WEEK.find(isSaturday) as Date, false);
    expect(saturday).toMatch(/^sáb/);
    const alert = defaultTexts('es', saturday)['templates.cancellation_alert'] as string;
    expect(smsInfo(alert).encoding).toBe('UCS-2');
    expect(smsInfo(alert.replace('sáb', 'sab')).encoding).toBe('GSM-7');
  });
});

describe('no doubled punctuation after an abbreviation (issue 39)', () => {
  const DOUBLED = /\.\s*\.(?!\.)|,\s*\.|,\s*,|\?\s*\.|!\s*\./;

  for (const locale of LOCALES)
    it(`every ${locale} template rendered with a time like 2:00 p.m. reads without ".." or ". ."`, () => {
      const times = [
        'mié, 25 de nov a las 2:00 p.m.',
        'mié, 25 de nov a la 1:00 p.m.',
        'Wed, Nov 25 at 2:00 p.m.',
        'Wed, Nov 25 at 2:00 PM',
        ...WEEK.map((at) => formatSlotTime(at, ZONE, locale)),
      ];
      for (const time of times)
        for (const [key, body] of Object.entries(customerWords(locale).templates)) {
          const text = renderTemplate(body, { name: 'Dr. Ana', business: 'Cuts & Co.', time });
          expect(text, `${locale} ${key}`).not.toMatch(DOUBLED);
        }
    });

  it('renders "{time}. ¡Te esperamos!" with the abbreviation standing for the full stop', () => {
    expect(renderTemplate('a las {time}. ¡Te esperamos!', { time: '2:00 p.m.' })).toBe(
      'a las 2:00 p.m. ¡Te esperamos!',
    );
    expect(renderTemplate('at {time}.', { time: '2:00 PM' })).toBe('at 2:00 PM.');
    expect(renderTemplate('{time}... see you', { time: '2:00 p.m.' })).toBe('2:00 p.m.... see you');
  });
});
