/**
 * Where the journeys' local identity server listens (support/identity-server.mjs, started by
 * playwright.config.ts next to the app server) and the Google client id both are given.
 */
export const appPort = Number(process.env.E2E_PORT ?? 3100);
export const identityPort = appPort + 1;
export const identityURL = `http://127.0.0.1:${identityPort}`;
export const googleClientId = 'e2e-google-client.apps.googleusercontent.com';
