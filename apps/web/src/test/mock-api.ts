import { DEFAULT_PLAN_CATALOGUE, type User } from '@waitlist/contract';
import { vi } from 'vitest';

/** What the fake server answers: a status, a JSON body (or raw text) and headers. */
export type MockAnswer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string> };
export type RecordedCall = {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
};
type Handler =
  | MockAnswer
  | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>)
  | 'network-error'
  | 'pending';

/** GET /config as the server answers it on its defaults (a test spreads it to change one field). */
export const defaultConfigBody = {
  success: true,
  googleClientId: null,
  facebookAppId: null,
  appleClientId: null,
  localMailbox: true,
  localPhone: false,
  billing: { provider: 'local', publishableKey: null, configured: true },
  plans: DEFAULT_PLAN_CATALOGUE,
  smsSegmentPrice: { amount: 0.0079, currency: 'USD' },
};
const defaultConfig: MockAnswer = { body: defaultConfigBody };

/**
 * Replaces `fetch` — the boundary to the real server — with answers keyed by "METHOD /path"
 * (path after /api/v1). Unknown calls answer 404 like the server would.
 */
export function mockApi(handlers: Record<string, Handler> = {}) {
  const calls: RecordedCall[] = [];
  const table: Record<string, Handler> = { 'GET /config': defaultConfig, ...handlers };

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path, body, headers };
    calls.push(call);

    const handler = table[`${method} ${path}`];
    if (handler === 'network-error') throw new TypeError('Failed to fetch');
    if (handler === 'pending') return new Promise<Response>(() => {});
    const answer: MockAnswer = !handler
      ? { status: 404, body: { success: false, message: 'Not found' } }
      : typeof handler === 'function'
        ? await handler(call)
        : handler;
    const status = answer.status ?? 200;
    const responseHeaders = new Headers(answer.headers);
    if (answer.text === undefined) responseHeaders.set('Content-Type', 'application/json');
    return new Response(answer.text ?? JSON.stringify(answer.body ?? { success: true }), {
      status,
      headers: responseHeaders,
    });
  });

  vi.stubGlobal('fetch', fetchMock);
  const callsTo = (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key);
  return { calls, callsTo, fetchMock };
}

/**
 * `mockApi` for a returning user: GET /auth/me answers with them (the current value of a getter,
 * for users that change during the test) and logout succeeds.
 */
export function mockSignedIn(user: User | (() => User), handlers: Record<string, Handler> = {}) {
  const current = typeof user === 'function' ? user : () => user;
  return mockApi({
    'GET /auth/me': () => ({ body: { success: true, data: current() } }),
    'POST /auth/logout': { body: { success: true, message: 'You have been logged out.' } },
    ...handlers,
  });
}
