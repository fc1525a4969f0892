import { authMessages } from '@waitlist/contract';

export const API_BASE = '/api/v1';
export const TOKEN_STORAGE_KEY = 'token';

export const tokenStorage = {
  get: (): string | null => localStorage.getItem(TOKEN_STORAGE_KEY),
  set: (token: string) => localStorage.setItem(TOKEN_STORAGE_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_STORAGE_KEY),
};

/** Every failed call ends up as one of these, whatever went wrong on the way (SPEC §8). */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: Record<string, string> | undefined;
  /** The server's own message, when it sent one; screens prefer it over their defaults. */
  readonly serverMessage: string | undefined;
  /** Seconds, from the Retry-After header of a 429. */
  readonly retryAfter: number | undefined;

  constructor(init: {
    status: number;
    message: string;
    errors?: Record<string, string>;
    serverMessage?: string;
    retryAfter?: number;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.errors = init.errors;
    this.serverMessage = init.serverMessage;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * The message a screen shows for a failed call: the server's words when it sent any, the
 * connection message when nothing came back, else the screen's own default.
 */
export function screenErrorMessage(error: unknown, fallback: string): string {
  if (isApiError(error)) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 0) return error.message;
  }
  return fallback;
}

let unauthorizedHandler: (() => void) | null = null;

/** The session registers itself here so that a 401 on a user call logs the user out. */
export function setUnauthorizedHandler(handler: (() => void) | null) {
  unauthorizedHandler = handler;
}

export type ApiRequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** The SPEC default for this call, used when the server gives no message. */
  defaultMessage: string;
  /** Defaults by HTTP status, used when the server gives no message (e.g. login 401/404). */
  statusMessages?: Partial<Record<number, string>>;
  /** Message when no answer arrives at all. */
  networkMessage?: string;
  /** A 401 here means something other than "session gone" (wrong current password). */
  keepSessionOn401?: boolean;
  signal?: AbortSignal;
};

type ErrorBody = { success?: unknown; message?: unknown; errors?: unknown };

function readErrors(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entries = Object.entries(value).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
  return entries.length > 0 ? Object.fromEntries(entries) : undefined;
}

function readRetryAfter(response: Response): number | undefined {
  const header = response.headers.get('Retry-After');
  if (!header) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) ? seconds : undefined;
}

export async function apiRequest<T>(path: string, options: ApiRequestOptions): Promise<T> {
  const token = tokenStorage.get();
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, message: options.networkMessage ?? authMessages.unableToConnect });
  }

  let body: ErrorBody | null = null;
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    body = null;
  }

  const failed = !response.ok || !body || body.success === false;
  if (!failed) return body as T;

  // A proxy with nothing behind it answers 502/504 without our JSON: that is "no response".
  if (!body && (response.status === 502 || response.status === 504)) {
    throw new ApiError({ status: 0, message: options.networkMessage ?? authMessages.unableToConnect });
  }

  const serverMessage = typeof body?.message === 'string' && body.message.trim() ? body.message : undefined;
  const status = response.ok ? 400 : response.status;
  if (status === 401 && token && !options.keepSessionOn401) unauthorizedHandler?.();

  throw new ApiError({
    status,
    message: serverMessage ?? options.statusMessages?.[status] ?? options.defaultMessage,
    errors: readErrors(body?.errors),
    serverMessage,
    retryAfter: response.status === 429 ? readRetryAfter(response) : undefined,
  });
}

/**
 * One call with a fixed path, method and SPEC default message, for the API modules that are nothing more:
 * `export const forgotPassword = apiCall<MessageAnswer, ForgotPasswordBody>('/auth/forgotpassword', ...)`.
 */
export function apiCall<Answer, Body = void>(
  path: string,
  method: NonNullable<ApiRequestOptions['method']>,
  defaultMessage: string,
): (body: Body) => Promise<Answer> {
  return (body) => apiRequest<Answer>(path, { method, body, defaultMessage });
}
