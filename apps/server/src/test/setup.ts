// Runs before every API test file (vitest.config.ts setupFiles): what the suite does differently from
// production, in one place.
import { afterAll, vi } from 'vitest';
import { setPasswordCost, TEST_PASSWORD_COST } from '../lib/secrets.ts';

// argon2id at test cost (issue 40); src/lib/secrets.test.ts pins the production parameters.
setPasswordCost(TEST_PASSWORD_COST);

// Files share a worker's module graph (vitest.config.ts, issue 40): a file that left fake timers on does not
// hand them to the next.
afterAll(() => {
  vi.useRealTimers();
});
