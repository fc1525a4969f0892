/**
 * How a CSV cell finds the business's service or staff member (issue 39): "womens cut" is "Women's cut" —
 * case, accents, punctuation and spacing ignored. A name that matches nothing may be a typo of one: the
 * closest name (at most 2 edits, and fewer than a third of its letters) is offered as a question, never taken.
 */
export interface NamedItem {
  id: string;
  name: string;
}

/** "Women's  Cut" → "womenscut"; "Tratamiento de hidratación" → "tratamientodehidratacion". */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Levenshtein distance, stopping early past `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}

export type NameMatch = { id: string; name: string } | { id: null; closest: string | null };

/** The item a cell names (ignoring case and punctuation), else the closest name to ask about, if any. */
export function matcherOf(items: NamedItem[]): (cell: string) => NameMatch {
  const byKey = new Map<string, NamedItem>();
  for (const item of items) if (!byKey.has(nameKey(item.name))) byKey.set(nameKey(item.name), item);
  return (cell) => {
    const key = nameKey(cell);
    const found = key ? byKey.get(key) : undefined;
    if (found) return { id: found.id, name: found.name };
    const limit = Math.min(2, Math.floor((key.length - 1) / 3));
    let closest: { name: string; edits: number } | null = null;
    if (limit > 0)
      for (const [other, item] of byKey) {
        const edits = distance(key, other, limit);
        if (edits <= limit && (!closest || edits < closest.edits)) closest = { name: item.name, edits };
      }
    return { id: null, closest: closest?.name ?? null };
  };
}
