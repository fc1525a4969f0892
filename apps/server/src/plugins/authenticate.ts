import { authMessages } from '@waitlist/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthService, Session } from '../features/auth/auth.service.ts';
import { Unauthorized } from '../lib/errors.ts';

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
export function createAuthenticate(authService: AuthService) {
  return async function authenticate(request: FastifyRequest, _reply: FastifyReply) {
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
