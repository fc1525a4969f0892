import { adminMessages } from '@waitlist/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LocalToolsAccess } from '../config.ts';
import { Forbidden } from '../lib/errors.ts';
import { sessionOf } from './authenticate.ts';

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * onRequest hook of every local tool (mailbox, phone simulator, billing clock; decision 0007). On a loopback
 * HOST they are for the person at the machine and answer anyone; with LOCAL_TOOLS=admin on a public HOST
 * only an admin session may use them (401 without a session, 403 for anyone else). On a public HOST without
 * the opt-in they are not registered at all. The request's remote address is never the test: a proxy on the
 * same host makes every request look local.
 */
export function localToolsGuard(access: Exclude<LocalToolsAccess, 'closed'>, authenticate: Hook): Hook {
  if (access === 'anyone') return async () => {};
  return async (request, reply) => {
    await authenticate(request, reply);
    if (!sessionOf(request).user.admin) throw new Forbidden(adminMessages.localToolsAdminOnly);
  };
}
