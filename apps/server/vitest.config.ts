import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { testFilesByDatabase } from './src/test/database-files.ts';

const onPostgres = process.env.TEST_DB === 'postgres';

export default defineConfig({
  test: {
    // TEST_DB=postgres runs the suite against TEST_DATABASE_URL (see src/test/test-app.ts), but only the files
    // that touch a database: the rest (pure rules, parsers, providers on local fakes) give the same answer on
    // either and run once, on PGlite. The rule is in src/test/database-files.ts (issue 40).
    include: onPostgres
      ? testFilesByDatabase(fileURLToPath(new URL('.', import.meta.url))).database
      : ['src/**/*.test.ts'],
    name: onPostgres ? 'api (PostgreSQL)' : 'api (PGlite)',
    // Migrates once per run (a PGlite tarball, a PostgreSQL template) and builds the server spawned tests run.
    globalSetup: ['src/test/global-setup.ts'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
