import { defineConfig } from 'vitest/config';

/**
 * Real server processes on one PostgreSQL (issue 17): two instances checked through their HTTP APIs. Run by
 * `npm test` (scripts/test.mjs) only when TEST_DATABASE_URL is set; `npm run test:scale -w apps/server` alone.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.scale.ts'],
    name: 'two instances (PostgreSQL)',
    env: { TEST_DB: 'postgres' },
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
