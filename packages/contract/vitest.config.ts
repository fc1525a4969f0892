import { defineConfig } from 'vitest/config';

/** The contract's own tests: its schemas and helpers, with no server or browser (issue 27). */
export default defineConfig({
  test: { include: ['src/**/*.test.ts'], name: 'contract' },
});
