import { authMessages, fieldMessages } from '@waitlist/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, withoutQueryValues } from '../lib/db-errors.ts';
import { AppError } from '../lib/errors.ts';

/** Maps every error to the API's one shape: `{ success: false, message, errors? }` (DESIGN.md §4). */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply
        .status(error.statusCode)
        .send({ success: false, message: error.message, errors: error.errors });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: Record<string, string> = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'body';
        errors[field] ??= issue.message ?? authMessages.validationFailed;
      }
      const first = Object.values(errors)[0] ?? authMessages.validationFailed;
      return reply.status(400).send({ success: false, message: first, errors });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({ success: false, message: requestErrorMessage(error) });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down or restarting: a clean 503 the client may retry, not a 500.
      request.log.warn({ err: withoutQueryValues(error) }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ success: false, message: authMessages.serviceUnavailable });
    }
    if (isProviderOutage(error)) {
      request.log.warn({ err: error }, 'payment provider unavailable');
      return reply
        .status(503)
        .header('retry-after', '30')
        .send({ success: false, message: authMessages.providerUnavailable });
    }
    // A failed query is logged with its SQL, never with the values it was given (issue 12).
    request.log.error({ err: withoutQueryValues(error) }, 'request failed');
    return reply.status(500).send({ success: false, message: authMessages.serverError });
  });
}

/** Fastify's refusals of a body it cannot read, in the catalogue's words (issue 27); others as they are. */
function requestErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return fieldMessages.badJson;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_TYPE':
      return fieldMessages.emptyBody;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return fieldMessages.jsonOnly;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return fieldMessages.bodyTooLarge;
    default:
      return error instanceof SyntaxError ? fieldMessages.badJson : error.message;
  }
}

/** The router's own refusals (a malformed path, a parameter past its length) in the API's shape and words. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  reply
    .status(error.statusCode ?? 400)
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ success: false, message: fieldMessages.badLink }));
}

/** Stripe's SDK errors for a provider that is down: no connection, a timeout, or a 5xx of its own. */
function isProviderOutage(error: unknown): boolean {
  const { type, statusCode } = error as { type?: unknown; statusCode?: unknown };
  if (type === 'StripeConnectionError') return true;
  return type === 'StripeAPIError' && typeof statusCode === 'number' && statusCode >= 500;
}
