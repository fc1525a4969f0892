/**
 * Parses Stripe's form encoding (qs-style brackets: `items[0][price]=…`, `expand[0]=…`,
 * `metadata[plan]=…`) into nested objects and arrays. Values stay strings, as on the wire.
 */
export function parseForm(encoded: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const segments = key.split(/\[|\]\[|\]/).filter((segment, index) => index === 0 || segment !== '');
    let node: Record<string, unknown> = root;
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) {
        node[segment] = value;
        return;
      }
      node[segment] ??= {};
      node = node[segment] as Record<string, unknown>;
    });
  }
  return arraysFromIndexes(root) as Record<string, unknown>;
}

function arraysFromIndexes(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, child]) => [key, arraysFromIndexes(child)] as const,
  );
  const numeric = entries.length > 0 && entries.every(([key]) => /^\d+$/.test(key));
  if (numeric) return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, child]) => child);
  return Object.fromEntries(entries);
}
