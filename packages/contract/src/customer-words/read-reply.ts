import { customerWords, DEFAULT_LOCALE, type Locale } from './catalogue.ts';
import type { ReplyKeyword } from './types.ts';

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

/** A locale's words, normalised once, as the reading below looks them up. */
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
}

const readers = new Map<Locale, Reader>();

function readerOf(locale: Locale): Reader {
  let reader = readers.get(locale);
  if (reader) return reader;
  const { keywords, claim } = customerWords(locale);
  const normalized = (list: readonly string[]) => list.map(normalizeReply);
  const wholeText = new Map<string, ReplyKeyword>();
  for (const keyword of ['stop', 'start', 'help'] as const)
    for (const word of normalized(keywords[keyword])) if (!wholeText.has(word)) wholeText.set(word, keyword);
  const politeOnly = new Set(normalized(claim.politeOnly));
  const phrases = normalized(claim.phrases);
  reader = {
    wholeText,
    join: normalized(keywords.join),
    yes: new Set(normalized(claim.yesWords)),
    tails: new Set(phrases),
    standalone: new Set(phrases.filter((phrase) => !politeOnly.has(phrase))),
    negatives: new Set(normalized(claim.negatives)),
    backOut: normalized(customerWords(locale).backOut),
  };
  readers.set(locale, reader);
  return reader;
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
 * join keyword may carry a name after it; a keyword is never also a claim.
 */
export function readReply(text: string, locale: Locale = DEFAULT_LOCALE): ReplyReading {
  const reader = readerOf(locale);
  const normalized = normalizeReply(text);
  const keyword = keywordIn(normalized, reader);
  const claim = keyword === null && claimIn(text, normalized, reader);
  const padded = ` ${normalized} `;
  const backOut =
    keyword === null && !claim && reader.backOut.some((phrase) => padded.includes(` ${phrase} `));
  return { keyword, claim, backOut };
}
