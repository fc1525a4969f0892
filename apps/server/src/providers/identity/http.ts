import { IdentityUnavailable } from './errors.ts';

const TIMEOUT_MS = 10_000;

export interface JsonAnswer {
  status: number;
  /** The parsed body, or null when it was empty or not JSON. */
  body: unknown;
}

/**
 * GETs a provider endpoint and returns its status and JSON. A network failure, a timeout, a 5xx or a 429
 * is the provider's trouble, not the user's: IdentityUnavailable. Other statuses are for the caller to judge.
 * `label` names the call in logs without the URL, whose query string carries the user's token.
 */
export async function getJson(url: string, label: string, headers: Record<string, string> = {}) {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'error',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new IdentityUnavailable(`${label}: ${reason}`, { cause: error });
  }
  const text = await response.text().catch(() => '');
  if (response.status >= 500 || response.status === 429)
    throw new IdentityUnavailable(`${label} answered ${response.status}`);
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): the caller sees a null body.
  }
  return { status: response.status, body } satisfies JsonAnswer;
}

export const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A JSON field as a trimmed string; numbers are accepted too (Facebook ids sometimes arrive as numbers). */
export function text(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}
