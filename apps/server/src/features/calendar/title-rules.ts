/**
 * What the owner's title rules say about an event ("Cut – Priya" → service Cut, staff Priya, price). Pure.
 *
 * How several rules combine: rules are read in the owner's order and each field (service, staff, price) is
 * taken from the first matching rule that sets it. So a "cut" rule with a service and a price and a later
 * "priya" rule with a staff member both apply to "Cut – Priya", while a later "cut" rule never overrides the
 * first one's price. A rule matches when its `contains` text appears anywhere in the title, compared without
 * case or accents ("cafe" matches "Café", "CUT" matches "Haircut"); an empty `contains` matches nothing.
 */
export interface TitleRule {
  contains: string;
  /** null or absent: the rule does not set it. */
  serviceId?: string | null;
  staffId?: string | null;
  priceCents?: number | null;
}

export interface TitleMatch {
  serviceId?: string;
  staffId?: string;
  priceCents?: number;
  /** Indexes of the rules that matched, in order. */
  matchedRules: number[];
}

/** Lower case, accents removed (NFKD without combining marks), runs of spaces made one. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An id a rule may set: rules are checked against the owner's catalogue when saved (issue 38), but one saved
 * before that check may name anything, and a proposal only ever stores an id's shape. */
const idOf = (id: string | null | undefined) => (id != null && UUID.test(id) ? id : undefined);

/** The fields the matching rules set, or null when no rule matches the title. */
export function matchTitle(title: string, rules: readonly TitleRule[]): TitleMatch | null {
  const folded = foldText(title);
  const match: TitleMatch = { matchedRules: [] };
  rules.forEach((rule, index) => {
    const needle = foldText(rule.contains);
    if (needle === '' || !folded.includes(needle)) return;
    match.matchedRules.push(index);
    match.serviceId ??= idOf(rule.serviceId);
    match.staffId ??= idOf(rule.staffId);
    if (match.priceCents === undefined && rule.priceCents != null) match.priceCents = rule.priceCents;
  });
  return match.matchedRules.length > 0 ? match : null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether `text` holds `word` as a whole word, without case or accents ("Cut – Jess" holds "jess"). */
export function holdsWord(text: string, word: string): boolean {
  const needle = foldText(word);
  if (needle === '') return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(needle)}(?![\\p{L}\\p{N}])`, 'u').test(foldText(text));
}

/**
 * Whether the title holds one of the excluded words ("Lunch", "Blocked") as a whole word, without case or
 * accents: "Lunch with Sam" and "BLOCKED" are excluded, "Lunchbox delivery" is not.
 */
export function isExcludedTitle(title: string, excludedWords: readonly string[]): boolean {
  return excludedWords.some((word) => holdsWord(title, word));
}
