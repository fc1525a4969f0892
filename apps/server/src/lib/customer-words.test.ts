import {
  type CustomerWords,
  customerWords,
  DEFAULT_LOCALE,
  formatSlotTime,
  LOCALES,
  type Locale,
  normalizeReply,
  type ReplyKeyword,
  readReply,
  textAsSent,
} from '@waitlist/contract';
import { describe, expect, it } from 'vitest';

/** Issue 25: the one catalogue of customer words (packages/contract/src/customer-words/). */

// Type level: a locale lacking a word does not compile, and every Locale has its words.
const { help: _help, ...textsWithoutHelp } = customerWords().texts;
// @ts-expect-error a locale without the HELP answer is refused by the type checker
const _incomplete: CustomerWords = { ...customerWords(), texts: textsWithoutHelp };
const _everyLocale: Record<Locale, CustomerWords> = { en: customerWords('en'), es: customerWords('es') };

/** Every leaf's kind by its path: what each locale must have, as the reference (English) has it. */
function leaves(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'function') return [[path, 'function']];
  if (Array.isArray(value)) return [[path, 'list']];
  if (value && typeof value === 'object')
    return Object.keys(value)
      .sort()
      .flatMap((key) => leaves((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key));
  return [[path, typeof value]];
}

function leafValue(words: CustomerWords, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], words);
}

describe('the catalogue', () => {
  it('has English as the default and lists every locale', () => {
    expect(DEFAULT_LOCALE).toBe('en');
    expect(LOCALES).toContain(DEFAULT_LOCALE);
    expect(customerWords()).toBe(customerWords('en'));
  });

  it.each(LOCALES)('%s has every key of the reference, none of them empty', (locale) => {
    const words = customerWords(locale);
    const reference = leaves(customerWords(DEFAULT_LOCALE));
    expect(leaves(words)).toEqual(reference);
    for (const [path, kind] of reference) {
      const value = leafValue(words, path);
      if (kind === 'string') expect(value, path).not.toBe('');
      if (kind === 'list') expect((value as string[]).length, path).toBeGreaterThan(0);
      // Every text of a business names the business (the alt text of the poster names the link).
      if (kind === 'function' && path !== 'slotTime.join')
        expect((value as (name: string) => string)('Bella Salon'), path).toContain('Bella Salon');
    }
  });

  // Every language's words are read whatever the customer's language (issue 28).
  it.each(LOCALES)('%s: every keyword and claim word reads as what it is', (locale) => {
    const { keywords, claim } = customerWords(locale);
    for (const keyword of Object.keys(keywords) as ReplyKeyword[])
      for (const word of keywords[keyword])
        expect(readReply(word), word).toEqual({ keyword, claim: false, backOut: false });
    for (const word of claim.yesWords)
      expect(readReply(word), word).toEqual({ keyword: null, claim: true, backOut: false });
    for (const phrase of claim.phrases.filter((phrase) => !claim.politeOnly.includes(phrase)))
      expect(readReply(phrase).claim, phrase).toBe(true);
    // A back-out phrase (issue 26) is never a keyword or a claim.
    for (const phrase of customerWords(locale).backOut)
      expect(readReply(`Sorry, ${phrase}`), phrase).toEqual({
        keyword: null,
        claim: false,
        backOut: true,
      });
    for (const phrase of claim.politeOnly) {
      expect(claim.phrases, phrase).toContain(phrase);
      expect(readReply(phrase).claim, phrase).toBe(false);
      expect(readReply(`${claim.yesWords[0]} ${phrase}`).claim, phrase).toBe(true);
    }
  });

  it.each(LOCALES)('%s: the texts name the words they tell customers to send', (locale) => {
    const { texts, keywords, templates, join } = customerWords(locale);
    const [stop, start, help, joinWord] = [
      keywords.stop[0],
      keywords.start[0],
      keywords.help[0],
      keywords.join[0],
    ];
    expect(texts.optOutFooter).toContain(stop);
    expect(texts.stopConfirmation('B')).toContain(start);
    expect(texts.help('B')).toContain(stop);
    expect(texts.joinStopped('B')).toContain(joinWord);
    expect(join.consent('B')).toContain(help);
    expect(join.poster.textJoin('(555) 010-0000')).toContain(joinWord);
    expect(join.poster.smallPrint).toContain(stop);
    for (const body of Object.values(templates)) expect(body).toMatch(/\{name\}/);
  });
});

describe('normalizeReply: one normalisation for keywords and claims', () => {
  it.each([
    ['  Stop. ', 'stop'],
    ["OK I'll take it!", 'ok ill take it'],
    ['OK I’ll take it 👍', 'ok ill take it'],
    ['"YES!!"', 'yes'],
    ['JOIN: Priya  Shah', 'join priya shah'],
    ['', ''],
  ])('%j → %j', (text, normalized) => {
    expect(normalizeReply(text)).toBe(normalized);
  });
});

describe('readReply', () => {
  it.each<[string, ReplyKeyword | null, boolean]>([
    ['STOP', 'stop', false],
    ['stop', 'stop', false],
    [' Stop. ', 'stop', false],
    ['Stop!!! 🛑', 'stop', false],
    ['STOPALL', 'stop', false],
    ['unsubscribe', 'stop', false],
    ['Cancel!', 'stop', false],
    ['end', 'stop', false],
    ['QUIT', 'stop', false],
    ['START', 'start', false],
    ['unstop', 'start', false],
    ['Start!', 'start', false],
    ['help?', 'help', false],
    ['HELP', 'help', false],
    ['JOIN', 'join', false],
    ['join Priya Shah', 'join', false],
    ['Join: Priya', 'join', false],
    ['joining', null, false],
    ['stop texting me please', null, false],
    ['STOPPED', null, false],
    ['s t o p', null, false],
    ['please stop', null, false],
    ['YES', null, true],
    ['Yes please!', null, true],
    ['yes!', null, true],
    ['OK I’ll take it', null, true],
    ['book me', null, true],
    ['Me!', null, true],
    ['yes?', null, false],
    ['no', null, false],
    ['not yes', null, false],
    ["yes but I can't", null, false],
    ["yes I'm running late", null, false],
    ['yesterday', null, false],
    ['please', null, false],
    ['Thanks', null, false],
    ['', null, false],
    ['👍', null, false],
  ])('%j → keyword %j, claim %j', (text, keyword, claim) => {
    expect(readReply(text)).toEqual({ keyword, claim, backOut: false });
  });
});

describe('formatSlotTime', () => {
  it.each([
    ['2026-11-24T20:00:00Z', 'America/New_York', 'Tue, Nov 24 at 3:00 PM'],
    ['2026-11-24T20:00:00Z', 'America/Los_Angeles', 'Tue, Nov 24 at 12:00 PM'],
    // The same instant on two calendar days.
    ['2026-11-25T00:30:00Z', 'America/New_York', 'Tue, Nov 24 at 7:30 PM'],
    ['2026-11-25T00:30:00Z', 'Europe/Berlin', 'Wed, Nov 25 at 1:30 AM'],
    // Spring forward in New York (2 AM → 3 AM): half an hour either side of the change.
    ['2026-03-08T06:30:00Z', 'America/New_York', 'Sun, Mar 8 at 1:30 AM'],
    ['2026-03-08T07:30:00Z', 'America/New_York', 'Sun, Mar 8 at 3:30 AM'],
    // Fall back: 1:30 AM happens twice, an hour apart.
    ['2026-11-01T05:30:00Z', 'America/New_York', 'Sun, Nov 1 at 1:30 AM'],
    ['2026-11-01T06:30:00Z', 'America/New_York', 'Sun, Nov 1 at 1:30 AM'],
    // Europe moves on another Sunday (1 AM UTC).
    ['2026-03-29T00:30:00Z', 'Europe/Berlin', 'Sun, Mar 29 at 1:30 AM'],
    ['2026-03-29T01:30:00Z', 'Europe/Berlin', 'Sun, Mar 29 at 3:30 AM'],
  ])('%s in %s reads %j', (iso, timeZone, text) => {
    expect(formatSlotTime(new Date(iso), timeZone)).toBe(text);
    expect(formatSlotTime(new Date(iso), timeZone, 'en')).toBe(text);
  });

  it('writes only GSM-7 spaces, whatever ICU puts before AM/PM', () => {
    expect(formatSlotTime(new Date('2026-11-24T20:00:00Z'), 'America/New_York')).not.toMatch(
      /[\u00a0\u202f]/,
    );
  });
});

describe('textAsSent', () => {
  const footer = customerWords().texts.optOutFooter;
  it.each([
    ['A slot opened', true, `A slot opened\n${footer}`],
    ['A slot opened', false, 'A slot opened'],
    ['A slot opened. Text STOP to opt out', true, 'A slot opened. Text STOP to opt out'],
    ['Nonstop deals', true, `Nonstop deals\n${footer}`],
    ['STOPS here', true, `STOPS here\n${footer}`],
  ])('%j (first text %j) goes out as %j', (body, firstText, sent) => {
    expect(textAsSent(body, { firstText })).toBe(sent);
  });
});
