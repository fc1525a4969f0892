import type { z } from 'zod';

/**
 * Inputs that break a zod schema at each of its limits, generated from the schema's own definition (issue 27):
 * every wrong type, a missing value, each length and size limit just past (and at) its bound, a bad option,
 * a bad format, and the same for every field of an object, every item of a list and every side of a pipe.
 */

type Def = {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  valueType?: z.ZodType;
  format?: string;
  minimum?: number;
  maximum?: number;
};
type CheckDef = {
  check: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number | bigint;
  format?: string;
};

const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRONG_TYPES: unknown[] = [undefined, null, 12345, -1.5, true, 'text', '', {}, [], [1, 2]];
const MAX_LENGTH = 600_000;

/** The lengths just around each length limit of a string or a list. */
function lengthsOf(def: Def): number[] {
  const lengths = new Set([0, 1, 2, 7, 10, 11]);
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    for (const bound of [c.minimum, c.maximum, c.length]) {
      if (typeof bound === 'number' && bound <= MAX_LENGTH) {
        for (const near of [bound - 1, bound, bound + 1]) if (near >= 0) lengths.add(near);
      }
    }
  }
  return [...lengths];
}

/** The numbers just around each bound of a number, and the ones no count or price may be. */
function numbersOf(def: Def): number[] {
  const numbers = new Set([0, 1, -1, 0.5, 1.5, 1e12, Number.NaN, Number.POSITIVE_INFINITY]);
  for (const check of def.checks ?? []) {
    const value = check._zod.def.value;
    if (typeof value === 'number')
      for (const near of [value - 1, value, value + 1, value + 0.5]) numbers.add(near);
  }
  for (const bound of [def.minimum, def.maximum]) {
    if (typeof bound === 'number' && Number.isFinite(bound)) numbers.add(bound - 1).add(bound + 1);
  }
  return [...numbers];
}

function stringProbes(def: Def): unknown[] {
  const probes: unknown[] = ['not valid!', '  ', 'a@b', '99:99', '12:00', 'Z', '2026-13-45'];
  for (const length of lengthsOf(def)) {
    probes.push('a'.repeat(length), '1'.repeat(length), `${'1'.repeat(Math.max(0, length - 1))}x`);
  }
  return probes;
}

/** Every breaking input for `schema`, to `depth` levels of nesting. */
export function probesOf(schema: z.ZodType, depth = 0): unknown[] {
  const def = defOf(schema);
  const probes: unknown[] = [...WRONG_TYPES];
  if (depth > 4) return probes;
  const inner = (child: z.ZodType | undefined) => (child ? probesOf(child, depth + 1) : []);
  switch (def.type) {
    case 'string':
      return [...probes, ...stringProbes(def)];
    case 'number':
    case 'int':
      return [...probes, ...numbersOf(def), ...numbersOf(def).map(String)];
    case 'enum':
      return [...probes, 'not-an-option', ...Object.values(def.entries ?? {})];
    case 'literal':
      return [...probes, ...(def.values ?? []), 'other'];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return [...probes, ...inner(def.innerType)];
    case 'pipe': {
      const out = inner(def.out);
      return [...probes, ...inner(def.in), ...out, ...out.map((value) => String(value))];
    }
    case 'union':
      return [...probes, ...(def.options ?? []).flatMap((option) => inner(option))];
    case 'array': {
      const items = inner(def.element);
      const lengths = lengthsOf(def).filter((length) => length <= 2_000);
      return [...probes, ...items.map((item) => [item]), ...lengths.map((n) => Array(n).fill(items[0]))];
    }
    case 'record':
      return [...probes, ...inner(def.valueType).map((value) => ({ key: value }))];
    case 'object': {
      const shape = def.shape ?? {};
      for (const [key, field] of Object.entries(shape)) {
        for (const value of probesOf(field, depth + 1)) probes.push({ [key]: value });
      }
      return probes;
    }
    default:
      return probes;
  }
}

/** Every issue message `schema` gives for the inputs that break it, with one input that gave each. */
export function issueMessages(schema: z.ZodType): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const input of probesOf(schema)) {
    const result = schema.safeParse(input);
    if (result.success) continue;
    for (const issue of result.error.issues) if (!found.has(issue.message)) found.set(issue.message, input);
  }
  return found;
}

/**
 * The limits of a schema (lengths, sizes, bounds, formats: every check but trims and refinements, whose words
 * the probes check) that carry no words of their own, as "path: check".
 */
export function unwordedChecks(schema: z.ZodType, path: string, depth = 0): string[] {
  const def = defOf(schema) as Def & { error?: unknown } & Record<string, unknown>;
  if (depth > 8) return [];
  const found: string[] = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def as CheckDef & { error?: unknown };
    if (c.check === 'overwrite' || c.check === 'custom') continue;
    if (!c.error) found.push(`${path}: ${c.check}${c.format ? ` (${c.format})` : ''}`);
  }
  if (def.type === 'string' && def.format && !def.error) found.push(`${path}: ${def.format}`);
  for (const [key, field] of Object.entries(def.shape ?? {})) {
    found.push(...unwordedChecks(field, `${path}.${key}`, depth + 1));
  }
  for (const child of [def.element, def.innerType, def.in, def.out, def.valueType, ...(def.options ?? [])]) {
    if (child) found.push(...unwordedChecks(child, path, depth + 1));
  }
  return found;
}
