/**
 * How a customer's reply is read (issue 15). A claim takes the slot the customer was last offered; anything
 * that is neither a claim nor a keyword (STOP, START, HELP) goes to the owner's inbox, and the customer gets
 * one automatic answer saying the owner will reply.
 *
 * A claim is, ignoring case, punctuation, emoji and extra spaces:
 * - one or more of the yes words below ("yes", "y", "yep", "yeah", "ok", "sure"…), optionally followed by
 *   one polite or booking phrase ("please", "I'll take it", "book me", "thanks"…): "Yes please!",
 *   "yes!", "Y", "Yep", "Yeah", "OK I'll take it", "ok yes please 👍";
 * - or one of the phrases alone: "I'll take it", "I want it", "book me", "count me in", "me", "mine".
 * Never a claim: a question ("yes?", "is it still free?"), a negative ("no", "not yes", "yes but I can't"),
 * or a yes with anything else after it ("yes I'm running late", "yesterday"): those reach the owner.
 */

/** Words that say yes on their own. */
export const CLAIM_YES_WORDS = [
  'yes',
  'y',
  'ye',
  'yep',
  'yup',
  'yeah',
  'yea',
  'ya',
  'yas',
  'ok',
  'okay',
  'okey',
  'k',
  'sure',
  'absolutely',
  'definitely',
] as const;

/** Phrases that may follow the yes words, or (the booking ones) stand alone. */
export const CLAIM_PHRASES = [
  'please',
  'pls',
  'plz',
  'thanks',
  'thank you',
  'thx',
  'ill take it',
  'i will take it',
  'i can take it',
  'i want it',
  'id like it',
  'i would like it',
  'please book me',
  'book me',
  'book me in',
  'book it',
  'count me in',
  'im in',
  'sounds good',
  'me',
  'mine',
  'me please',
] as const;

/** Polite words that claim only after a yes word ("yes please"); every other phrase also stands alone. */
const POLITE_ONLY = new Set(['please', 'pls', 'plz', 'thanks', 'thank you', 'thx', 'sounds good']);
/** Phrases that claim on their own, without a yes word ("I'll take it", "book me"). */
const STANDALONE = new Set<string>(CLAIM_PHRASES.filter((phrase) => !POLITE_ONLY.has(phrase)));

const YES = new Set<string>(CLAIM_YES_WORDS);
const TAILS = new Set<string>(CLAIM_PHRASES);
const NEGATIVE = new Set(['no', 'not', 'nope', 'nah', 'cant', 'cannot', 'dont', 'wont', 'never', 'but']);

/** Lower case, apostrophes dropped ("I'll" → "ill"), everything but letters, digits and spaces removed. */
export function normalizeReply(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a reply claims the slot it answers (see the rules above). */
export function isClaim(text: string): boolean {
  if (text.includes('?')) return false;
  const normalized = normalizeReply(text);
  if (normalized === '') return false;
  const words = normalized.split(' ');
  if (words.some((word) => NEGATIVE.has(word))) return false;
  let index = 0;
  while (index < words.length && YES.has(words[index]!)) index += 1;
  const rest = words.slice(index).join(' ');
  if (index === 0) return STANDALONE.has(rest);
  return rest === '' || TAILS.has(rest);
}

/** The texts a reply may get back (issue 15). */
export const replyMessages = {
  /** The one automatic answer to a free-text reply (at most one per customer per 24 hours). */
  autoAnswer: (business: string) =>
    `${business}: Thanks for your message! We got it and will reply to you here soon.`,
} as const;
