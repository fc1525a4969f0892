import { authMessages } from '@waitlist/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../test/mock-api.ts';
import { ApiError, apiRequest, screenErrorMessage, setUnauthorizedHandler } from './api-client.ts';

const login = () =>
  apiRequest('/auth/login', {
    method: 'POST',
    body: { email: 'a@b.co', password: 'x' },
    defaultMessage: authMessages.loginFailed,
    statusMessages: { 401: authMessages.invalidCredentials, 404: authMessages.accountNotFound },
    networkMessage: authMessages.noResponse,
  });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => setUnauthorizedHandler(null));

describe('apiRequest', () => {
  it('sends JSON to /api/v1 with the bearer token from localStorage', async () => {
    localStorage.setItem('token', 'tok-123');
    const api = mockApi({ 'POST /auth/login': { body: { success: true, token: 't', user: {} } } });
    await login();
    const [url, init] = api.fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/v1/auth/login');
    expect(api.calls[0]!.headers.authorization).toBe('Bearer tok-123');
    expect(api.calls[0]!.headers['content-type']).toBe('application/json');
    expect(init?.body).toBe(JSON.stringify({ email: 'a@b.co', password: 'x' }));
  });

  it('prefers the server message and keeps the per-field errors', async () => {
    mockApi({
      'POST /auth/login': {
        status: 400,
        body: { success: false, message: 'Please correct the highlighted fields', errors: { email: 'Nope' } },
      },
    });
    const error = await failure(login());
    expect(error.status).toBe(400);
    expect(error.message).toBe('Please correct the highlighted fields');
    expect(error.serverMessage).toBe('Please correct the highlighted fields');
    expect(error.errors).toEqual({ email: 'Nope' });
  });

  it('falls back to the SPEC message for the status, then to the call default', async () => {
    mockApi({ 'POST /auth/login': { status: 401, body: { success: false } } });
    expect((await failure(login())).message).toBe(authMessages.invalidCredentials);

    mockApi({ 'POST /auth/login': { status: 404, text: 'not json' } });
    expect((await failure(login())).message).toBe(authMessages.accountNotFound);

    mockApi({ 'POST /auth/login': { status: 500, text: '' } });
    const error = await failure(login());
    expect(error.message).toBe(authMessages.loginFailed);
    expect(error.serverMessage).toBeUndefined();
  });

  it('treats a 200 answer with success:false as a failure', async () => {
    mockApi({ 'POST /auth/login': { body: { success: false, message: 'Odd' } } });
    expect((await failure(login())).message).toBe('Odd');
  });

  it('maps a network failure to status 0 and the "no response" message', async () => {
    mockApi({ 'POST /auth/login': 'network-error' });
    const error = await failure(login());
    expect(error.status).toBe(0);
    expect(error.message).toBe(authMessages.noResponse);

    mockApi({ 'GET /auth/me': 'network-error' });
    const me = await failure(apiRequest('/auth/me', { defaultMessage: 'x' }));
    expect(me.message).toBe(authMessages.unableToConnect);
    expect(screenErrorMessage(me, 'fallback')).toBe(authMessages.unableToConnect);
  });

  it('treats a bare 502 from the dev proxy as no response', async () => {
    mockApi({ 'POST /auth/login': { status: 502, text: 'Bad gateway' } });
    const error = await failure(login());
    expect(error.status).toBe(0);
    expect(error.message).toBe(authMessages.noResponse);
  });

  it('reads Retry-After on 429', async () => {
    mockApi({
      'POST /auth/login': {
        status: 429,
        headers: { 'Retry-After': '120' },
        body: { success: false, message: authMessages.tooManyAttempts(2) },
      },
    });
    const error = await failure(login());
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(120);
    expect(error.message).toBe('Too many attempts. Please try again in 2 minutes.');
  });

  it('reports a 401 on a user call so the session ends, unless the call opts out', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    localStorage.setItem('token', 'tok');
    mockApi({
      'GET /auth/me': { status: 401, body: { success: false, message: authMessages.sessionExpired } },
      'PUT /auth/updatepassword': {
        status: 401,
        body: { success: false, message: 'Current password is incorrect' },
      },
    });
    await failure(apiRequest('/auth/me', { defaultMessage: 'x' }));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await failure(
      apiRequest('/auth/updatepassword', { method: 'PUT', defaultMessage: 'x', keepSessionOn401: true }),
    );
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not end a session on a 401 when there was none (wrong login)', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockApi({
      'POST /auth/login': { status: 401, body: { success: false, message: authMessages.invalidCredentials } },
    });
    await failure(login());
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('screenErrorMessage', () => {
  it('uses the server words, else the screen fallback', () => {
    expect(
      screenErrorMessage(new ApiError({ status: 400, message: 'd', serverMessage: 'Server' }), 'Screen'),
    ).toBe('Server');
    expect(screenErrorMessage(new ApiError({ status: 500, message: 'Default' }), 'Screen')).toBe('Screen');
    expect(screenErrorMessage(new Error('boom'), 'Screen')).toBe('Screen');
  });
});
