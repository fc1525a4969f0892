import { authMessages } from '@waitlist/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
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
      return reply.status(status).send({ success: false, message: error.message });
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

/** Stripe's SDK errors for a provider that is down: no connection, a timeout, or a 5xx of its own. */
function isProviderOutage(error: unknown): boolean {
  const { type, statusCode } = error as { type?: unknown; statusCode?: unknown };
  if (type === 'StripeConnectionError') return true;
  return type === 'StripeAPIError' && typeof statusCode === 'number' && statusCode >= 500;
}
