import { defineConfig } from '@playwright/test';
import { googleClientId, identityPort, identityURL, appPort as port } from './support/identity.ts';

/**
 * Journeys in Debian's Chromium (never a downloaded browser) against the real server, which serves
 * the built web app on an in-memory PGlite database with the local mailbox. Google sign-in is
 * configured against a local identity server (support/identity-server.mjs) that publishes the keys
 * the app server checks ID tokens with; Facebook and Apple are left unconfigured.
 */
export const baseURL = `http://localhost:${port}`;

export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  // Two files at a time, each file's tests in order (issue 40): every journey makes its own owners, numbers
  // and customers on the one server, so files never share a row; two browsers overlap one's waits with the
  // other's work on two cores (260 s alone for one at a time, 219 s for two).
  fullyParallel: false,
  workers: 2,
  // On CI, a journey that fails is run once more and, if it then passes, is reported as flaky by name in the
  // run's summary (scripts/test.mjs): two browsers beside three test suites on two cores (issue 40) time out
  // where a person's run does not. A person's run retries nothing.
  retries: process.env.CI === 'true' ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  projects: [
    { name: 'journeys', testIgnore: /billing-journey\.spec\.ts/ },
    // The billing journey moves the local billing clock, which every owner on the server shares (POST
    // /dev/billing/advance): it runs after the others, on its own, so no other journey's trial ends under it.
    { name: 'billing clock', testMatch: /billing-journey\.spec\.ts/, dependencies: ['journeys'] },
  ],
  use: {
    baseURL,
    // A trace records every action's page (120 core-seconds of the run's 420 on two cores, issue 40): kept for a
    // person's run; CI keeps the failure's screenshot and page snapshot.
    trace: process.env.CI === 'true' ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // The journeys never reach the internet: a provider SDK a test does not serve itself fails to
        // load at once, the same way on every machine.
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
      ],
    },
  },
  webServer: [
    {
      command: 'node support/identity-server.mjs',
      url: `${identityURL}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { IDENTITY_PORT: String(identityPort), GOOGLE_CLIENT_ID: googleClientId },
    },
    {
      // The server as `npm start` runs it: built once (skipped when current), then plain JavaScript.
      command: 'node ../scripts/build-server.mjs && node ../apps/server/dist/main.js',
      url: `${baseURL}/api/v1/health`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseURL,
        DATA_DIR: 'memory://',
        ADMIN_EMAILS: 'admin@e2e.test,list-admin@e2e.test',
        // Every journey signs up from 127.0.0.1: lift the per-address sign-up throttle (issue 12).
        SIGNUP_LIMIT_PER_HOUR: '100000',
        // Owners made through the API (support/app.ts onboardedOwner) each come from an address of their own.
        TRUST_PROXY: '1',
        LOG_LEVEL: 'warn',
        GOOGLE_CLIENT_ID: googleClientId,
        GOOGLE_JWKS_URL: `${identityURL}/jwks`,
        // The local push services the journeys start (pwa-push, new-owner-journey): the only loopback
        // endpoints pushes may go to (issue 24).
        LOCAL_PUSH_SERVICES: 'http://127.0.0.1:3910,http://127.0.0.1:3912',
      },
    },
  ],
});
