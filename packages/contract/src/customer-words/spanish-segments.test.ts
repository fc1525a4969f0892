import { describe, expect, it } from 'vitest';
import {
  plainLetters,
  smsInfo,
  TEMPLATE_SAMPLE_VALUES_BY_LOCALE,
  textAsSent,
  ucs2Culprit,
} from '../sms-segments.ts';
import { renderTemplate } from '../waitlist.messages.ts';
import { customerWords } from './catalogue.ts';

/** The contract is typed without Node's or the DOM's globals; vitest runs in Node, which has `console`. */
declare const console: { log: (message: string) => void };

/** A 12-character business name, as the brief's count asks. */
const BUSINESS = 'Studio Lumen';
const es = customerWords('es');

/** Every default Spanish text as it is sent: server texts with the business, templates filled, first-text footer. */
function spanishTexts(): [string, string][] {
  const texts = Object.entries(es.texts).map(([key, text]): [string, string] => [
    `texts.${key}`,
    typeof text === 'function' ? text(BUSINESS) : text,
  ]);
  const values = { ...TEMPLATE_SAMPLE_VALUES_BY_LOCALE.es, business: BUSINESS };
  const templates = Object.entries(es.templates).map(([key, body]): [string, string] => [
    `templates.${key}`,
    textAsSent(renderTemplate(body, values), { firstText: true, locale: 'es' }),
  ]);
  return [...texts, ...templates];
}

describe('the segments of every default Spanish text (issue 28)', () => {
  const rows = spanishTexts().map(([key, text]) => {
    const accents = smsInfo(text);
    const plain = smsInfo(plainLetters(text));
    return {
      key,
      accents: `${accents.segments} ${accents.encoding}`,
      plain: `${plain.segments} ${plain.encoding}`,
      culprit: ucs2Culprit(text) ?? '',
    };
  });

  it('prints the table, and every text is at most 2 segments and GSM-7 with plain letters', () => {
    console.log(
      [
        'text | with accents | plain letters | first UCS-2 character',
        ...rows.map((r) => `${r.key} | ${r.accents} | ${r.plain} | ${r.culprit}`),
      ].join('\n'),
    );
    expect(rows).toHaveLength(Object.keys(es.texts).length + Object.keys(es.templates).length);
    for (const row of rows) expect(row.plain, row.key).toMatch(/^[12] GSM-7$/);
  });

  it('gives the counts the es.ts comment states', () => {
    expect(rows.map((row) => `${row.key} | ${row.accents} | ${row.plain}`)).toEqual([
      'texts.unnamedBusiness | 1 GSM-7 | 1 GSM-7',
      'texts.autoAnswer | 1 GSM-7 | 1 GSM-7',
      'texts.stopConfirmation | 1 GSM-7 | 1 GSM-7',
      'texts.startConfirmation | 1 GSM-7 | 1 GSM-7',
      'texts.help | 1 GSM-7 | 1 GSM-7',
      'texts.optOutFooter | 1 GSM-7 | 1 GSM-7',
      'texts.joinRequest | 1 GSM-7 | 1 GSM-7',
      'texts.joinWelcome | 1 GSM-7 | 1 GSM-7',
      'texts.joinFull | 1 GSM-7 | 1 GSM-7',
      'texts.joinStopped | 1 GSM-7 | 1 GSM-7',
      'texts.backedOut | 1 GSM-7 | 1 GSM-7',
      'texts.released | 1 GSM-7 | 1 GSM-7',
      'texts.languageSwitched | 1 GSM-7 | 1 GSM-7',
      // The sample's owner-typed service ("hidratación") makes the templates UCS-2; the words themselves are GSM-7.
      'templates.confirmation | 3 UCS-2 | 2 GSM-7',
      'templates.reminder | 3 UCS-2 | 2 GSM-7',
      'templates.cancellation_alert | 3 UCS-2 | 2 GSM-7',
      'templates.claimed | 3 UCS-2 | 2 GSM-7',
      'templates.already_filled | 4 UCS-2 | 2 GSM-7',
    ]);
  });
});

describe('the opt-out wording of the Spanish texts', () => {
  const sample = (text: string | ((business: string) => string)) =>
    typeof text === 'function' ? text(BUSINESS) : text;

  it('every text that tells how to opt out names the Spanish stop word ALTO', () => {
    const { texts, join } = es;
    for (const text of [
      texts.optOutFooter,
      texts.help,
      texts.joinRequest,
      texts.joinWelcome,
      texts.startConfirmation,
      join.consent,
      join.poster.smallPrint,
    ])
      expect(sample(text)).toMatch(/\bALTO\b/);
    expect(es.keywords.stop[0]).toBe('ALTO');
  });

  it('help names the Spanish and the English stop word; help and the stop confirmation say START to come back', () => {
    expect(sample(es.texts.help)).toMatch(/\bALTO\b/);
    expect(sample(es.texts.help)).toMatch(/\bSTOP\b/);
    for (const text of [es.texts.stopConfirmation, es.texts.help]) expect(sample(text)).toMatch(/\bSTART\b/);
    expect(sample(es.join.consent)).toMatch(/\bAYUDA\b/);
    expect(sample(es.texts.help)).toMatch(/Pueden aplicar tarifas de mensajes y datos/);
  });

  it('every first Spanish text ends with the opt-out line or already names ALTO', () => {
    for (const [key, body] of Object.entries(es.templates)) {
      const sent = textAsSent(body, { firstText: true, locale: 'es' });
      expect(sent, key).toMatch(/\bALTO\b/);
    }
  });
});
