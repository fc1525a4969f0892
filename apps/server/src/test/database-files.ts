import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Which API test files touch a database (issue 40): only those run a second time on PostgreSQL; the others
 * (pure rules, parsers, providers against local fakes) run once, on the PGlite pass.
 *
 * The rule: a test file touches the database when it, or any test support file it imports (a file under
 * src/test/ or named *.test-helpers.ts, followed through their own imports), names createTestApp,
 * createTestDatabase, openDatabase or TEST_DB / TEST_DATABASE_URL. Importing src/test/test-app.ts for a
 * helper is enough to count, so the rule errs toward running a file twice, never toward skipping it.
 * createTestDatabase also checks the rule at run time: a file the rule calls pure that opens a test
 * database fails on the PGlite pass, so a new kind of helper cannot quietly drop a file from PostgreSQL.
 */
const NAMES_A_DATABASE = /\b(createTestApp|createTestDatabase|openDatabase|TEST_DB|TEST_DATABASE_URL)\b/;
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]/g;
const isSupportFile = (path: string) =>
  /[\\/]src[\\/]test[\\/]/.test(path) || /\.test-helpers\.ts$/.test(path);

const verdicts = new Map<string, boolean>();

export function touchesDatabase(file: string, seen = new Set<string>()): boolean {
  const path = resolve(file);
  const known = verdicts.get(path);
  if (known !== undefined) return known;
  if (seen.has(path) || !existsSync(path)) return false;
  seen.add(path);
  const text = readFileSync(path, 'utf8');
  let verdict = NAMES_A_DATABASE.test(text);
  for (const match of text.matchAll(IMPORT)) {
    if (verdict) break;
    const imported = resolve(dirname(path), match[1]!);
    if (isSupportFile(imported) && touchesDatabase(imported, seen)) verdict = true;
  }
  verdicts.set(path, verdict);
  return verdict;
}
