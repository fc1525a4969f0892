import { adminMessages, authMessages, billingMessages, errorResponse } from '@waitlist/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Forbidden } from '../lib/errors.ts';
import { sessionOf } from './authenticate.ts';

/**
 * A route hook (onRequest, preValidation, preHandler). Typed on the plain request, which every route's
 * request (whatever its schema) is, so routes use guards without casts.
 */
export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * SPEC §6: the paid side (waitlist, openings, texting, billing) is for full users, that is verified and with
 * business details submitted (or approved). Runs after `authenticate`.
 */
export const requireFullUser: Guard = async (request) => {
  const { user } = sessionOf(request);
  if (!user.verified) throw new Forbidden(authMessages.notVerified);
  if (user.businessVerificationStatus !== 'submitted' && user.businessVerificationStatus !== 'approved') {
    throw new Forbidden(billingMessages.businessDetailsRequired);
  }
};

/** Admins only; runs after `authenticate` (visitors got 401 there, everyone else gets 403 here). */
export const requireAdmin: Guard = async (request) => {
  if (!sessionOf(request).user.admin) throw new Forbidden(adminMessages.adminOnly);
};

/** The error answers every guarded full-user route may give (documented in the OpenAPI schema). */
export const guardedErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
  503: errorResponse,
};

/** The bearer security requirement of a guarded route (OpenAPI). */
export const bearerSecurity = [{ bearerAuth: [] }];
