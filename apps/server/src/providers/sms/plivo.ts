import type { NumberState, SmsProvider, SmsSendRequest, SmsSendResult } from './types.ts';
import { SmsProviderError } from './types.ts';

/** The name of the application we create on the Plivo account; found again by name, so it is made once. */
export const PLIVO_APP_NAME = 'waitlist-and-text';
const TIMEOUT_MS = 10_000;

/** Plivo writes numbers without the '+' ("14155550123"); we keep E.164. */
export const toE164 = (number: string) => (number.startsWith('+') ? number : `+${number}`);
const plivoDigits = (number: string) => number.replace(/^\+/, '');
/** Plivo's filter time: "YYYY-MM-DD HH:MM:ss" in UTC. */
export const plivoTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/** One authenticated call to Plivo's REST API; throws SmsProviderError, permanent or not (see `plivoClient`). */
type PlivoCall = <T>(method: 'GET' | 'POST', path: string, body?: object) => Promise<T>;

/**
 * Plivo's REST API v1 over HTTPS with fetch (the official `plivo` package brings axios, request, lodash, joi
 * and more for the four calls we make). Basic auth with the auth id and token; JSON bodies.
 */
export function createPlivoSmsProvider(options: {
  authId: string;
  authToken: string;
  apiUrl: string;
  /** Where Plivo posts delivery reports for each message. */
  statusUrl: string;
}): SmsProvider {
  const call = plivoClient(options);
  return {
    name: 'plivo',

    async send(request: SmsSendRequest): Promise<SmsSendResult> {
      // Plivo has no idempotency key: the outbox never re-sends a message already marked sent, and the key
      // rides on the status callback URL so a delivery report always finds its message.
      const url = new URL(options.statusUrl);
      url.searchParams.set('messageId', request.idempotencyKey);
      const answer = await call<{ message_uuid?: string[] }>('POST', '/Message/', {
        src: plivoDigits(request.from),
        dst: plivoDigits(request.to),
        text: request.text,
        url: url.toString(),
        method: 'POST',
      });
      const uuid = answer?.message_uuid?.[0];
      if (!uuid) throw new SmsProviderError('Plivo accepted the message without a message_uuid');
      return { providerMessageId: uuid, status: 'sent' };
    },

    findSent: (query) => findSentMessages(call, query),

    async searchNumber(areaCode?: string) {
      const query = new URLSearchParams({ country_iso: 'US', type: 'local', services: 'sms', limit: '1' });
      if (areaCode) query.set('pattern', areaCode);
      const answer = await call<{ objects?: { number: string }[] }>('GET', `/PhoneNumber/?${query}`);
      const number = answer?.objects?.[0]?.number;
      return number ? toE164(number) : null;
    },

    ensureApplication: (messageUrl: string) => ensureApplication(call, messageUrl),

    async rentNumber(number: string, appId: string) {
      const answer = await call<{ numbers?: { number: string; status: string }[]; status?: string }>(
        'POST',
        `/PhoneNumber/${encodeURIComponent(plivoDigits(number))}/`,
        { app_id: appId },
      );
      const rented = answer?.numbers?.find((entry) => plivoDigits(entry.number) === plivoDigits(number));
      if (rented && rented.status.toLowerCase() !== 'success') {
        throw new SmsProviderError(`Plivo could not rent ${number}: ${rented.status}`, true);
      }
    },

    async numberStatus(number: string): Promise<NumberState> {
      const details = await call<{
        sms_enabled?: boolean;
        number_type?: string;
        tendlc_registration_status?: string | null;
        toll_free_sms_verification?: string | null;
      }>('GET', `/Number/${encodeURIComponent(plivoDigits(number))}/`);
      return numberStateFrom(details ?? {});
    },
  };
}

function plivoClient(options: { authId: string; authToken: string; apiUrl: string }): PlivoCall {
  const base = `${options.apiUrl}/v1/Account/${encodeURIComponent(options.authId)}`;
  const authorization = `Basic ${Buffer.from(`${options.authId}:${options.authToken}`).toString('base64')}`;

  return async function call<T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new SmsProviderError(`Plivo ${method} ${path}: ${reason}`);
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // A proxy's HTML error page: keep the status, drop the body.
    }
    if (!response.ok) {
      const detail = (json as { error?: unknown } | null)?.error;
      const reason = typeof detail === 'string' ? detail : JSON.stringify(detail ?? text.slice(0, 200));
      // 400/404/422: this request will never succeed (bad number, unknown resource). 401/403 are a
      // configuration problem an operator can fix, 429 and 5xx pass: those are retried.
      const permanent = [400, 404, 422].includes(response.status);
      throw new SmsProviderError(
        `Plivo ${method} ${path} answered ${response.status}: ${reason}`,
        permanent,
        response.status,
      );
    }
    return json as T;
  };
}

/**
 * Plivo's Message List (MDRs, 20 a page, 20 calls a minute): outbound texts between the two numbers in the
 * interrupted send's time window, every page. Only asked after a send whose answer was lost.
 */
async function findSentMessages(
  call: PlivoCall,
  { from, to, since, until }: { from: string; to: string; since: Date; until: Date },
): Promise<string[]> {
  const found: string[] = [];
  for (let offset = 0; offset < 200; offset += 20) {
    const query = new URLSearchParams({
      message_direction: 'outbound',
      from_number: `+${plivoDigits(from)}`,
      to_number: `+${plivoDigits(to)}`,
      message_time__gte: plivoTime(since),
      message_time__lte: plivoTime(until),
      limit: '20',
      offset: String(offset),
    });
    const page = await call<{ objects?: { message_uuid?: string }[]; meta?: { next?: string | null } }>(
      'GET',
      `/Message/?${query}`,
    );
    const objects = page?.objects ?? [];
    for (const entry of objects) if (entry.message_uuid) found.push(entry.message_uuid);
    if (objects.length < 20 || !page?.meta?.next) break;
  }
  return found;
}

/** Finds our application by name (creating it once), pointing its inbound texts at `messageUrl`. */
async function ensureApplication(call: PlivoCall, messageUrl: string): Promise<string> {
  type App = { app_id: string; app_name: string; message_url?: string };
  for (let offset = 0; ; offset += 20) {
    const page = await call<{ objects?: App[]; meta?: { next?: string | null } }>(
      'GET',
      `/Application/?limit=20&offset=${offset}`,
    );
    const found = page?.objects?.find((app) => app.app_name === PLIVO_APP_NAME);
    if (found) {
      if (found.message_url !== messageUrl) {
        await call('POST', `/Application/${encodeURIComponent(found.app_id)}/`, {
          message_url: messageUrl,
          message_method: 'POST',
        });
      }
      return found.app_id;
    }
    if (!page?.meta?.next || (page.objects ?? []).length === 0) break;
  }
  const created = await call<{ app_id?: string }>('POST', '/Application/', {
    app_name: PLIVO_APP_NAME,
    message_url: messageUrl,
    message_method: 'POST',
  });
  if (!created?.app_id) throw new SmsProviderError('Plivo created the application without an app_id');
  return created.app_id;
}

/**
 * US texting needs the number registered: a local number through 10DLC (brand + campaign), a toll-free one
 * through toll-free verification. Plivo reports both on the number.
 */
export function numberStateFrom(details: {
  sms_enabled?: boolean;
  number_type?: string;
  tendlc_registration_status?: string | null;
  toll_free_sms_verification?: string | null;
}): NumberState {
  if (details.sms_enabled === false) return { status: 'failed', reason: 'This number cannot send texts.' };
  const tollFree = details.number_type?.toLowerCase() === 'tollfree';
  const state = (tollFree ? details.toll_free_sms_verification : details.tendlc_registration_status) ?? '';
  const normalized = state.toUpperCase();
  if (['COMPLETED', 'VERIFIED', 'APPROVED'].includes(normalized)) return { status: 'verified' };
  if (['FAILED', 'REJECTED'].includes(normalized)) {
    return {
      status: 'failed',
      reason: tollFree
        ? 'Toll-free verification was rejected by the carriers.'
        : 'US business texting registration (10DLC) was rejected.',
    };
  }
  return { status: 'pending' };
}
