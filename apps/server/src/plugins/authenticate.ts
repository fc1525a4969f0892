import { authMessages } from '@waitlist/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/rows.ts';
import { Unauthorized } from '../lib/errors.ts';

/**
 * A signed-in request's session: its user and the session's id.
 *
 * `user` is the row as read in onRequest, before the body arrived (issue 24): a snapshot for guards, reads
 * and the user's id. It may be stale by the time the handler runs (another request of the same owner may
 * have changed the email, the plan, the admin flag…), so a write never decides from it: the service locks
 * the row in its own transaction (`lockUser`, `SELECT … FOR UPDATE`) and decides from that.
 */
export interface Session {
  user: UserRow;
  sessionId: string;
}

/** How the guard finds a token's session (the auth service's `authenticate`, injected in composition.ts). */
export type SessionLookup = (token: string) => Promise<Session | undefined | null>;

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : undefined;
}

/** onRequest hook for guarded routes: loads the session from the bearer token or answers 401. */
export function createAuthenticate(authService: { authenticate: SessionLookup }) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw new Unauthorized(authMessages.notAuthenticated);
    const session = await authService.authenticate(token);
    if (!session) throw new Unauthorized(authMessages.sessionExpired);
    request.session = session;
  };
}

/** The session of a request that passed `authenticate`. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.session) throw new Unauthorized(authMessages.notAuthenticated);
  return request.session;
}
