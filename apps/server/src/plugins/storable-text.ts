import { findUnstorableText, unstorableTextMessage } from '@waitlist/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequest } from '../lib/errors.ts';

/**
 * The contract's one rule for every string field (issue 12): a NUL byte or an unpaired surrogate in a path
 * id, a query parameter or the body is refused with a 400 naming the field, before validation, so no route
 * (and no database) ever sees text PostgreSQL cannot store. Raw bodies kept for signature checks (webhooks)
 * are strings or buffers and are left to their signature.
 */
export function registerStorableTextRule(app: FastifyInstance) {
  // A callback hook: it runs on every request, and an async one costs a promise each time (issue 16).
  app.addHook('preValidation', (request: FastifyRequest, _reply, done) => {
    const body = typeof request.body === 'object' ? request.body : undefined;
    const field =
      findUnstorableText(request.params, '') ??
      findUnstorableText(request.query, '') ??
      findUnstorableText(body, '');
    if (field === undefined) return done();
    const name = field || 'body';
    const message = unstorableTextMessage(name);
    done(new BadRequest(message, { [name]: message }));
  });
}
