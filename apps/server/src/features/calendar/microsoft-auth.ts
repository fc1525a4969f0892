import { boundCalendarFetch, CalendarAddressRefused } from './calendar-fetch.ts';
import { CalendarReadError } from './calendar-reader.ts';

/**
 * Signing in to Microsoft 365 / Outlook.com (the identity platform's v2.0 authorization-code flow) and one
 * authenticated use of Graph. Plain `fetch`: the flow is two form posts and Graph is JSON over HTTPS, so
 * `@azure/msal-node` and `@microsoft/microsoft-graph-client` would add a token cache we keep sealed ourselves
 * and nothing else. Tokens go in and come back out (to be sealed again); they are never logged here.
 */

/** Refresh tokens (offline_access), the owner's calendars read and written, and who they are (User.Read). */
export const MICROSOFT_SCOPES = 'offline_access Calendars.ReadWrite User.Read';

export interface MicrosoftApp {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** The identity platform with its tenant; https://login.microsoftonline.com/common (work and personal accounts). */
  authority?: string;
  /** Graph's root; https://graph.microsoft.com. */
  graph?: string;
  fetch: typeof globalThis.fetch;
  /** The clock that decides whether an access token has expired. */
  now?: () => Date;
}

export interface MicrosoftTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

/** Microsoft refused the code or the refresh token (revoked consent, expired): the owner must connect again. */
export class MicrosoftAuthError extends Error {
  override name = 'MicrosoftAuthError';
}

/** Graph answered an error other than 401 (the status and Graph's error code are kept for the caller). */
export class GraphError extends Error {
  override name = 'GraphError';
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null,
  ) {
    super(message);
  }
}

const DEFAULT_AUTHORITY = 'https://login.microsoftonline.com/common';
const DEFAULT_GRAPH = 'https://graph.microsoft.com';
export const graphRoot = (app: Pick<MicrosoftApp, 'graph'>) =>
  (app.graph ?? DEFAULT_GRAPH).replace(/\/$/, '');
const authority = (value: string | undefined) => (value ?? DEFAULT_AUTHORITY).replace(/\/$/, '');

/** The consent screen's address: our scopes, the code back to `redirectUri` in the query, `state` echoed. */
export function microsoftAuthUrl(options: {
  clientId: string;
  redirectUri: string;
  state: string;
  authority?: string;
}): string {
  const url = new URL(`${authority(options.authority)}/oauth2/v2.0/authorize`);
  url.search = new URLSearchParams({
    client_id: options.clientId,
    response_type: 'code',
    redirect_uri: options.redirectUri,
    response_mode: 'query',
    scope: MICROSOFT_SCOPES,
    state: options.state,
    // The owner may be signed in to several accounts: let them choose the one whose calendar they keep.
    prompt: 'select_account',
  }).toString();
  return url.href;
}

async function tokenRequest(app: MicrosoftApp, grant: Record<string, string>): Promise<MicrosoftTokens> {
  const response = await boundCalendarFetch(app.fetch)(`${authority(app.authority)}/oauth2/v2.0/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: MICROSOFT_SCOPES,
      ...grant,
    }).toString(),
  });
  const body = (await response.json().catch((error: unknown) => {
    // An answer past the byte limit is said as such, not as a refused sign-in.
    if (error instanceof CalendarAddressRefused) throw error;
    return {};
  })) as Record<string, unknown>;
  if (!response.ok || typeof body.access_token !== 'string') {
    // Only Microsoft's error code: its description may quote the request, and nothing secret is logged.
    const code = typeof body.error === 'string' ? body.error : `status ${response.status}`;
    throw new MicrosoftAuthError(`Microsoft refused the sign-in (${code}); connect again`);
  }
  const now = app.now?.() ?? new Date();
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: typeof body.expires_in === 'number' ? new Date(now.getTime() + body.expires_in * 1000) : null,
  };
}

/** The code from the consent redirect exchanged for tokens; a refresh token is required (offline_access). */
export async function exchangeMicrosoftCode(app: MicrosoftApp, code: string): Promise<MicrosoftTokens> {
  const tokens = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: app.redirectUri,
  });
  if (!tokens.refreshToken) throw new MicrosoftAuthError('Microsoft gave no refresh token; connect again');
  return tokens;
}

/** New tokens for a refresh token; Microsoft usually rotates it, else the old one is kept. */
export async function refreshMicrosoftToken(
  app: MicrosoftApp,
  refreshToken: string,
): Promise<MicrosoftTokens> {
  const tokens = await tokenRequest(app, { grant_type: 'refresh_token', refresh_token: refreshToken });
  return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
}

export interface GraphResponse {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One use of Graph with one set of tokens: each call carries the bearer token and asks for times in UTC; an
 * expired token (by its expiry, or a 401) is refreshed once and the call made again. A refused refresh is
 * CalendarReadError('sign-in'). Answers the refreshed tokens (null when unchanged) and the requests made.
 */
export function graphSession(app: MicrosoftApp, tokens: MicrosoftTokens) {
  let current = tokens;
  let refreshed: MicrosoftTokens | null = null;
  let requests = 0;
  const root = graphRoot(app);
  // Every answer from Graph is read through the bounded calendar fetch (issue 38): bytes, time, redirects.
  const fetch = boundCalendarFetch(app.fetch);

  async function refresh() {
    if (!current.refreshToken)
      throw new CalendarReadError('Microsoft gave no refresh token; connect again', 'sign-in');
    requests += 1;
    try {
      current = await refreshMicrosoftToken(app, current.refreshToken);
    } catch (error) {
      if (error instanceof MicrosoftAuthError) throw new CalendarReadError(error.message, 'sign-in');
      throw error;
    }
    refreshed = current;
  }

  const send = (url: string, method: string, body: unknown) => {
    requests += 1;
    return fetch(url, {
      method,
      headers: {
        authorization: `Bearer ${current.accessToken}`,
        accept: 'application/json',
        prefer: 'outlook.timezone="UTC"',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  };

  /** A path under Graph's root, or a link Graph gave (nextLink, deltaLink): only Graph's own are followed. */
  async function call(method: string, pathOrLink: string, body?: unknown): Promise<GraphResponse> {
    const url = pathOrLink.startsWith('/') ? `${root}${pathOrLink}` : pathOrLink;
    // The bearer token goes to Graph only, never to an address an answer named.
    if (!url.startsWith(`${root}/`)) throw new CalendarReadError('Graph linked outside itself', 'unreadable');
    const now = app.now?.() ?? new Date();
    if (current.expiresAt && current.expiresAt.getTime() <= now.getTime() + 60_000) await refresh();
    let response = await send(url, method, body);
    if (response.status === 401) {
      await response.body?.cancel();
      await refresh();
      response = await send(url, method, body);
      if (response.status === 401)
        throw new CalendarReadError('Graph refused the calendar tokens', 'sign-in');
    }
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      if (response.ok) throw new CalendarReadError('Graph answered something other than JSON', 'unreadable');
    }
    if (!response.ok) {
      const error = parsed.error as { code?: string; message?: string } | undefined;
      throw new GraphError(
        `Graph answered ${response.status} to ${method}: ${error?.message ?? ''}`,
        response.status,
        error?.code ?? null,
      );
    }
    return { status: response.status, body: parsed };
  }

  return { call, requests: () => requests, refreshed: () => refreshed };
}
