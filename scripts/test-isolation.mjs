// Which test files run in a module graph of their own (issue 40). Each vitest worker otherwise runs its files
// one after another in one module graph (`isolate: false`), so the app's modules are loaded once per worker
// instead of once per file: the API suite on PGlite went from 334 s to 154 s alone, the web suite from 178 s to
// 47 s, with the same tests passing. A file keeps its own graph when it changes what a module is for the files
// after it: it mocks a module (`vi.mock`, `vi.doMock`), empties the registry (`vi.resetModules`), or stubs
// a global or the environment (`vi.stubGlobal`, `vi.stubEnv`). Vitest's own recipe
// (https://vitest.dev/guide/recipes/disable-isolation) names the same list.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const CHANGES_MODULES = /\bvi\.(mock|doMock|resetModules|stubGlobal|stubEnv)\(/;

/** Whether a test file's source needs a module graph of its own. */
export const needsIsolation = (source) => CHANGES_MODULES.test(source);

/**
 * The test files below `root`/src whose names end with one of `suffixes`, relative to `root` and sorted, split
 * into those that can share a worker's module graph and those that need their own; `only` narrows the list.
 */
export function testFilesByIsolation(root, suffixes, only = () => true) {
  const shared = [];
  const isolated = [];
  const visit = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (suffixes.some((suffix) => entry.name.endsWith(suffix)) && only(path))
        (needsIsolation(readFileSync(path, 'utf8')) ? isolated : shared).push(relative(root, path));
    }
  };
  visit(join(root, 'src'));
  return { shared, isolated };
}
