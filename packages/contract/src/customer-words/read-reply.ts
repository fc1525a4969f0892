import { customerWords, LOCALES, type Locale } from './catalogue.ts';
import type { CustomerWords, ReplyKeyword } from './types.ts';

export type { ReplyKeyword };

/** What a customer's reply says to the server: a keyword, a claim, or neither (free text for the owner). */
export interface ReplyReading {
  keyword: ReplyKeyword | null;
  claim: boolean;
  /** "Sorry, I can't make it": a winner giving the slot back (issue 26). Never also a claim or a keyword. */
  backOut?: boolean;
}

/**
 * The one normalisation keywords and claims are compared after: lower case, apostrophes dropped ("I'll" →
 * "ill"), everything but letters, digits and spaces removed, spaces squeezed ("  Stop. " → "stop").
 */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every locale's words, normalised once, as the reading below looks them up. */
interface Reader {
  /** Whole-text keywords (stop, start, help), the first list naming a word winning. */
  wholeText: Map<string, ReplyKeyword>;
  /** Words a join may start with, a name after them ("JOIN Priya Shah"). */
  join: string[];
  yes: Set<string>;
  tails: Set<string>;
  standalone: Set<string>;
  negatives: Set<string>;
  backOut: string[];
  /** Each language's switch word ("espanol" → 'es'). */
  language: Map<string, Locale>;
}

/** A catalogue word without its accents ("sí" → "si", "apártamela" → "apartamela", "español" → "espanol"). */
function withoutAccents(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');
}

/**
 * Each catalogue word as `normalizeReply` leaves it and, when it differs, without its accents: customers often
 * type "si" for "sí". Only the catalogue's words are stripped, never the reply, so English reads as before.
 */
function spellings(list: readonly string[]): string[] {
  return [...new Set(list.map(normalizeReply).flatMap((word) => [word, withoutAccents(word)]))];
}

let cached: Reader | null = null;

/**
 * One reader for every language (issue 28): a customer stored as English may answer "sí", and English STOP,
 * START and HELP work for everyone. English comes first, so where languages share a word English decides.
 */
function readerOfAll(): Reader {
  if (cached) return cached;
  const all = LOCALES.map(customerWords);
  const words = (pick: (words: CustomerWords) => readonly string[]) => spellings(all.flatMap(pick));
  const wholeText = new Map<string, ReplyKeyword>();
  for (const locale of all)
    for (const keyword of ['stop', 'start', 'help'] as const)
      for (const word of spellings(locale.keywords[keyword]))
        if (!wholeText.has(word)) wholeText.set(word, keyword);
  const language = new Map<string, Locale>();
  for (const locale of LOCALES)
    for (const word of spellings(customerWords(locale).languageWords))
      if (!language.has(word)) language.set(word, locale);
  const politeOnly = new Set(words((w) => w.claim.politeOnly));
  const phrases = words((w) => w.claim.phrases);
  cached = {
    wholeText,
    join: words((w) => w.keywords.join),
    yes: new Set(words((w) => w.claim.yesWords)),
    tails: new Set(phrases),
    standalone: new Set(phrases.filter((phrase) => !politeOnly.has(phrase))),
    negatives: new Set(words((w) => w.claim.negatives)),
    backOut: words((w) => w.backOut),
    language,
  };
  return cached;
}

function keywordIn(normalized: string, reader: Reader): ReplyKeyword | null {
  const whole = reader.wholeText.get(normalized);
  if (whole) return whole;
  const joins = reader.join.some((word) => normalized === word || normalized.startsWith(`${word} `));
  return joins ? 'join' : null;
}

/**
 * A claim: one or more yes words, then nothing or one phrase ("Yes please!", "ok yes please 👍"), or a
 * phrase that stands alone ("I'll take it", "book me"). Never a question ("yes?"), a reply with a negative
 * ("not yes", "yes but I can't"), or a yes with anything else after it ("yes I'm running late", "yesterday").
 */
function claimIn(text: string, normalized: string, reader: Reader): boolean {
  if (/[?¿？]/.test(text) || normalized === '') return false;
  const words = normalized.split(' ');
  if (words.some((word) => reader.negatives.has(word))) return false;
  let index = 0;
  while (index < words.length && reader.yes.has(words[index]!)) index += 1;
  const rest = words.slice(index).join(' ');
  if (index === 0) return reader.standalone.has(rest);
  return rest === '' || reader.tails.has(rest);
}

/**
 * How the server reads a customer's reply (issues 15 and 25), ignoring case, punctuation, emoji and extra
 * spaces: a stop, start or help keyword is the whole text ("Stop." is STOP, "stop texting me" is not); a
 * join keyword may carry a name after it; a keyword is never also a claim. Every language's words are read,
 * whatever the customer's language (issue 28): "ALTO" stops and "sí, lo quiero" claims for an English
 * customer too, and "STOP" always stops.
 */
export function readReply(text: string): ReplyReading {
  const reader = readerOfAll();
  const normalized = normalizeReply(text);
  const keyword = keywordIn(normalized, reader);
  const claim = keyword === null && claimIn(text, normalized, reader);
  const padded = ` ${normalized} `;
  const backOut =
    keyword === null && !claim && reader.backOut.some((phrase) => padded.includes(` ${phrase} `));
  return { keyword, claim, backOut };
}

/**
 * A reply that switches the customer's language (issue 28): the whole text is a language word of any
 * catalogue ("Español", "espanol", "INGLÉS", "English!"), answered in the language it names. Null otherwise
 * ("español por favor" is free text). `readReply` reads these as free text, so the server asks this first.
 */
export function readLanguageSwitch(text: string): Locale | null {
  return readerOfAll().language.get(normalizeReply(text)) ?? null;
}
