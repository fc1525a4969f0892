import { errorResponse } from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, Forbidden } from '../../lib/errors.ts';
import { releaseNonce, useNonce } from '../../nonces/index.ts';
import { messagingMessages } from './messaging.messages.ts';
import type { MessagingService, ReceiveInbound, SignedNonce } from './messaging.service.ts';
import { type SignedParams, verifyPlivoV3Signature } from './plivo-signature.ts';

const MAX_BODY_BYTES = 64 * 1024;

/**
 * How long a signature nonce is remembered (issue 24). The V3 signature carries no timestamp, so a captured
 * request verifies forever; what stops its replay, or its re-split into another request that signs the same
 * (keys and values are joined without separators: `MessageUUID` can absorb the next field), is the record of
 * its nonce. Plivo retries a callback three times within about seven minutes (60, 120 and 240 s, 8 s
 * timeouts); seven days covers those and any delayed delivery many times over, and keeps the table small (one
 * row per callback, deleted once expired by the sweep in lib/rate-limit.ts). Past the window an inbound text
 * still cannot be replayed: its MessageUUID must be a UUID (a re-split one is not) and is applied once
 * (inbound_events).
 */
export const PLIVO_NONCE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
export const PLIVO_NONCE_SCOPE = 'plivo-v3';

/** Plivo's MessageUUID; a re-split that makes it absorb another field is no longer one. */
const MESSAGE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Plivo posts form fields; JSON bodies are read the same way (top-level fields as strings). */
function paramsOf(body: unknown, contentType: string | undefined): SignedParams {
  if (typeof body !== 'string') return {};
  if (contentType?.includes('application/json')) {
    try {
      const json = JSON.parse(body) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(json)
          .filter(([, value]) => value !== null && value !== undefined)
          .map(([key, value]) => [key, String(value)]),
      );
    } catch {
      return {};
    }
  }
  const params: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const existing = params[key];
    params[key] =
      existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
  }
  return params;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/**
 * The webhook's nonces (issue 24). An inbound text's is recorded by the statement that stores the text
 * (issue 40: one round trip), so a failure records neither; a delivery report's, and a malformed request's,
 * on its own (`use`), released again when the work it guarded failed on our side.
 */
function requestNonces(db: Database, clock: Clock) {
  const of = (request: unknown): SignedNonce => ({
    scope: PLIVO_NONCE_SCOPE,
    nonce: (request as { plivoNonce: string }).plivoNonce,
    expiresAt: new Date(clock.now().getTime() + PLIVO_NONCE_WINDOW_MS),
  });
  return {
    /** The request's nonce, valid for the window from now. */
    of,
    /** Records the request's nonce on its own; false when it was used before (a replay: not applied). */
    async use(request: FastifyRequest) {
      const { scope, nonce, expiresAt } = of(request);
      const fresh = await useNonce(db, scope, nonce, expiresAt, clock.now());
      if (!fresh) request.log.warn({ nonce }, 'plivo webhook: signature nonce used before; not applied');
      (request as { plivoNonceUsed?: boolean }).plivoNonceUsed = fresh;
      return fresh;
    },
    async releaseOnError(request: FastifyRequest, _reply: unknown, error: unknown) {
      const nonce = (request as { plivoNonce?: string }).plivoNonce;
      const used = (request as { plivoNonceUsed?: boolean }).plivoNonceUsed;
      if (!nonce || !used || ((error as { statusCode?: number }).statusCode ?? 500) < 500) return;
      await releaseNonce(db, PLIVO_NONCE_SCOPE, nonce).catch((failure: unknown) => {
        request.log.warn(
          { err: failure, nonce },
          'plivo webhook: could not release the nonce of a failed request',
        );
      });
    },
  };
}

/**
 * POST /webhooks/plivo/message (inbound texts) and /webhooks/plivo/status (delivery reports), under /api/v1.
 * Each request must carry a valid Plivo V3 signature over PUBLIC_URL + the request path and its fields,
 * signed with PLIVO_AUTH_TOKEN; 403 otherwise. A nonce is used once: a request carrying one already seen is not
 * applied and answers 200 like any replay (duplicate / not applied), so Plivo stops retrying it. Replays with a
 * fresh nonce are applied once too (inbound_events).
 */
export const plivoWebhookRoutes: FastifyPluginAsyncZod<{
  messagingService: MessagingService;
  /** A customer's text goes to the conversation (features/conversation), handed over in routes.ts. */
  receiveInbound: ReceiveInbound;
  /** null: no PLIVO_AUTH_TOKEN, so no request can be verified (the local phone uses /dev/phone instead). */
  authToken: string | null;
  publicUrl: string;
  /** Where used nonces are recorded (nonces/), and the time they are recorded at. */
  db: Database;
  clock: Clock;
}> = async (app, { messagingService, receiveInbound, authToken, publicUrl, db, clock }) => {
  // The signature covers the fields exactly as sent: keep the body as text in this plugin only.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: MAX_BODY_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.addHook('preHandler', async (request) => {
    if (!authToken) throw new AppError(503, messagingMessages.webhookNotConfigured);
    const signature = header(request.headers['x-plivo-signature-v3']);
    const nonce = header(request.headers['x-plivo-signature-v3-nonce']);
    if (!signature || !nonce) throw new Forbidden(messagingMessages.signatureMissing);
    const params = paramsOf(request.body, request.headers['content-type']);
    const valid = verifyPlivoV3Signature({
      authToken,
      method: request.method,
      url: `${publicUrl}${request.url}`,
      nonce,
      signature,
      params,
    });
    if (!valid) throw new Forbidden(messagingMessages.signatureInvalid);
    (request as { plivoParams?: SignedParams }).plivoParams = params;
    (request as { plivoNonce?: string }).plivoNonce = nonce;
  });

  const nonces = requestNonces(db, clock);
  // A request whose work failed on our side (5xx: the database restarting, say) is retried by Plivo; if the
  // retry carries the same nonce it must be applied, not taken for a replay, so nothing is lost.
  app.addHook('onError', nonces.releaseOnError);

  const paramsFrom = (request: unknown) => (request as { plivoParams: SignedParams }).plivoParams;
  /** A request refused for good (400) keeps its nonce used: its replay answers as any replay does. */
  const refuse = async (request: FastifyRequest, message: string) => {
    if (await nonces.use(request)) throw new AppError(400, message);
    return { success: true as const, duplicate: true };
  };
  const failures = { 400: errorResponse, 403: errorResponse, 503: errorResponse };
  const responses = {
    200: z.object({ success: z.literal(true), duplicate: z.boolean() }),
    ...failures,
  };

  app.post(
    '/webhooks/plivo/message',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: { tags: ['messaging'], summary: 'Plivo inbound text (signature V3)', response: responses },
    },
    async (request) => {
      const params = paramsFrom(request);
      const from = first(params.From);
      const to = first(params.To);
      const uuid = first(params.MessageUUID);
      if (!from || !to || !uuid) return refuse(request, 'From, To and MessageUUID are required.');
      if (!MESSAGE_UUID.test(uuid)) return refuse(request, 'MessageUUID must be a UUID.');
      // The nonce is recorded by the statement that stores the text: a used one stores nothing (duplicate).
      const result = await receiveInbound({
        from,
        to,
        text: first(params.Text) ?? '',
        providerMessageId: uuid,
        nonce: nonces.of(request),
      });
      request.log.info({ messageUuid: uuid, outcome: result.outcome }, 'plivo inbound text');
      return { success: true as const, duplicate: result.outcome === 'duplicate' };
    },
  );

  app.post(
    '/webhooks/plivo/status',
    {
      bodyLimit: MAX_BODY_BYTES,
      schema: {
        tags: ['messaging'],
        summary: 'Plivo delivery report (signature V3); `applied: false` for a replay or an older status',
        response: { 200: z.object({ success: z.literal(true), applied: z.boolean() }), ...failures },
      },
    },
    async (request) => {
      if (!(await nonces.use(request))) return { success: true as const, applied: false };
      const params = paramsFrom(request);
      const uuid = first(params.MessageUUID);
      const status = first(params.Status);
      if (!uuid || !status) throw new AppError(400, 'MessageUUID and Status are required.');
      if (!MESSAGE_UUID.test(uuid)) throw new AppError(400, 'MessageUUID must be a UUID.');
      const query = request.query as { messageId?: string };
      const result = await messagingService.applyDeliveryReport({
        providerMessageId: uuid,
        status,
        errorCode: first(params.ErrorCode),
        messageId: query.messageId,
      });
      return { success: true as const, applied: result.applied };
    },
  );
};
