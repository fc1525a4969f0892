import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    // TEST_DB=postgres runs the same suite against TEST_DATABASE_URL (see src/test/test-app.ts).
    name: process.env.TEST_DB === 'postgres' ? 'api (PostgreSQL)' : 'api (PGlite)',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
