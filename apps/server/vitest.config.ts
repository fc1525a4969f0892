import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testFilesByIsolation } from '../../scripts/test-isolation.mjs';
import { touchesDatabase } from './src/test/database-files.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const root = fileURLToPath(new URL('.', import.meta.url));
// TEST_DB=postgres runs the suite against TEST_DATABASE_URL (see src/test/test-app.ts), but only the files that
// touch a database: the rest (pure rules, parsers, providers on local fakes) give the same answer on either and
// run once, on PGlite. The rule is in src/test/database-files.ts (issue 40).
const { shared, isolated } = testFilesByIsolation(root, ['.test.ts'], (path) =>
  onPostgres ? touchesDatabase(path) : true,
);
const name = onPostgres ? 'api (PostgreSQL)' : 'api (PGlite)';

export default defineConfig({
  test: {
    // Migrates once per run (a PGlite tarball, a PostgreSQL template) and builds the server spawned tests run.
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker runs its files in one module graph, except those that mock or reset modules
    // (scripts/test-isolation.mjs, issue 40).
    projects: [
      { extends: true, test: { name, include: shared, isolate: false } },
      { extends: true, test: { name: `${name}, isolated`, include: isolated } },
    ],
  },
});
