import { validationMessages } from './messages.ts';

/**
 * Text PostgreSQL cannot store: a NUL character, or a UTF-16 surrogate without its pair (JSON can carry
 * both, "\u0000" and "\ud800"; a UTF-8 database cannot). One rule for every string field of every request
 * (issue 12): such text is refused with a 400 that names the field, before any code sees it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(value: string): boolean {
  return !value.includes(String.fromCharCode(0)) && !LONE_SURROGATE.test(value);
}

/**
 * The path (e.g. `email`, `items.2.name`) of the first string in `value`, or key of an object, that cannot
 * be stored; undefined when every one can. `root` prefixes the path ('' for none) and names a bare string.
 */
export function findUnstorableText(value: unknown, root = 'value', depth = 0): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : root;
  if (!value || typeof value !== 'object' || depth > 32) return undefined;
  if (ArrayBuffer.isView(value)) return undefined;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  for (const [key, child] of entries) {
    const path = root === '' ? key : `${root}.${key}`;
    if (!isStorableText(key)) return path;
    const found = findUnstorableText(child, path, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The 400 answer's message for a field holding unstorable text. */
export const unstorableTextMessage = (field: string) => validationMessages.unstorableText(field);
