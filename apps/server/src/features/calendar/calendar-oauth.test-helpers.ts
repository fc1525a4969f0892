import { createServer } from 'node:net';
import { and, eq, isNotNull } from 'drizzle-orm';
import { expect } from 'vitest';
import { messages } from '../../db/schema.ts';
import type { FakeGoogle } from '../../test/fake-google.ts';
import type { FakeGraph } from '../../test/fake-graph.ts';
import type { TestApp } from '../../test/test-app.ts';
import { call } from '../waitlist/waitlist.test-helpers.ts';

/** Where the providers send the owner back (PUBLIC_URL is http://app.test in tests). */
export const callbackOf = (kind: 'google' | 'microsoft') =>
  `http://app.test/api/v1/calendar/oauth/${kind}/callback`;

/** The test app's settings for the local Google, with pushes sent to `pushUrl` when given. */
export const googleEnv = (google: FakeGoogle, pushUrl?: string): Record<string, string> => ({
  GOOGLE_CALENDAR_CLIENT_ID: google.clientId,
  GOOGLE_CALENDAR_CLIENT_SECRET: google.clientSecret,
  GOOGLE_CALENDAR_API_URL: google.url,
  GOOGLE_CALENDAR_TOKEN_URL: `${google.url}/token`,
  GOOGLE_CALENDAR_REVOKE_URL: `${google.url}/revoke`,
  ...(pushUrl ? { CALENDAR_PUSH_URL: pushUrl } : {}),
});

/** The test app's settings for the local Microsoft sign-in and Graph, with pushes sent to `pushUrl`. */
export const graphEnv = (graph: FakeGraph, pushUrl?: string): Record<string, string> => ({
  MICROSOFT_CALENDAR_CLIENT_ID: graph.clientId,
  MICROSOFT_CALENDAR_CLIENT_SECRET: graph.clientSecret,
  MICROSOFT_CALENDAR_AUTHORITY: `${graph.url}/common`,
  MICROSOFT_CALENDAR_GRAPH_URL: graph.url,
  // The local Graph listens on 127.0.0.1.
  CALENDAR_ALLOW_PRIVATE_ADDRESSES: 'true',
  ...(pushUrl ? { CALENDAR_PUSH_URL: pushUrl } : {}),
});

/**
 * The owner presses "Connect …": the consent screen's state, and the cookie the answer set to bind it to this
 * browser (issue 38), as the browser sends it back (`calendar_oauth=…`).
 */
export async function startConsent(t: TestApp, token: string, kind: 'google' | 'microsoft') {
  const start = await call(t, token, 'POST', `/calendar/oauth/${kind}/start`);
  expect(start.statusCode, start.body).toBe(200);
  const consentUrl = new URL(start.json().url);
  expect(consentUrl.searchParams.get('redirect_uri')).toBe(callbackOf(kind));
  const setCookie = String(start.headers['set-cookie']);
  expect(setCookie).toMatch(/^calendar_oauth=[\w-]+;/);
  return {
    consentUrl,
    state: consentUrl.searchParams.get('state')!,
    setCookie,
    cookie: setCookie.split(';')[0]!,
  };
}

/** The provider sends a browser back with `code` and `state`: the one that started (`cookie`), or another. */
export function returnFromConsent(
  t: TestApp,
  kind: 'google' | 'microsoft',
  code: string,
  state: string,
  cookie?: string,
) {
  return t.app.inject({
    method: 'GET',
    url: `/api/v1/calendar/oauth/${kind}/callback?code=${encodeURIComponent(code)}&state=${encodeURIComponent(state)}`,
    ...(cookie ? { headers: { cookie } } : {}),
  });
}

/** The pending connection a callback's redirect names (`/account?tab=calendar&pending=<id>`), if any. */
export const pendingIdOf = (landed: { headers: Record<string, unknown> }) =>
  new URL(String(landed.headers.location), 'http://app.test').searchParams.get('pending');

/**
 * The whole journey: the owner presses "Connect …", consents, the provider sends the browser back to us
 * (303 to the Calendar tab, with the account waiting), and the owner confirms it. Answers the redirect.
 */
export async function consent(
  t: TestApp,
  token: string,
  kind: 'google' | 'microsoft',
  issueCode: (redirectUri: string) => string,
) {
  const { state, cookie } = await startConsent(t, token, kind);
  const landed = await returnFromConsent(t, kind, issueCode(callbackOf(kind)), state, cookie);
  const pendingId = pendingIdOf(landed);
  if (pendingId) {
    const confirmed = await call(t, token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  }
  return landed;
}

/** A free local port (the app listens there, so the providers' pushes reach it over HTTP). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How many of a business's texts have been handed to the SMS provider. */
export async function textsSentBy(t: TestApp, userId: string) {
  const rows = await t.database.db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.direction, 'out'), isNotNull(messages.sentAt)));
  return rows.length;
}
