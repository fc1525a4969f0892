import {
  errorResponse,
  joinAnswer,
  joinBody,
  joinChallengeResponse,
  joinLinkResponse,
  joinPageResponse,
} from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { JoinService } from './join.service.ts';

const slugParams = z.object({ slug: z.string().trim().min(1).max(64) });
const publicErrors = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 429: errorResponse };

/**
 * Customers join a waitlist themselves (issue 15): the public page's API and QR codes (no session), and
 * the owner's link.
 */
export const joinRoutes: FastifyPluginAsyncZod<{ joinService: JoinService; authenticate: Guard }> = async (
  app,
  { joinService: service, authenticate },
) => {
  app.get(
    '/join-link',
    {
      onRequest: authenticate,
      preValidation: requireFullUser,
      schema: {
        tags: ['join'],
        security: [{ bearerAuth: [] }],
        response: { 200: joinLinkResponse, ...guardedErrors },
      },
    },
    async (request) => ({ success: true as const, data: await service.joinLink(sessionOf(request).user) }),
  );

  app.get(
    '/join/:slug',
    { schema: { tags: ['join'], params: slugParams, response: { 200: joinPageResponse, ...publicErrors } } },
    async (request) => ({
      success: true as const,
      data: await service.page(request.params.slug, request.ip),
    }),
  );

  // The proof-of-work challenge the page's widget solves once an address has sent a few sign-ups (issue 24).
  app.get(
    '/join/:slug/challenge',
    {
      schema: {
        tags: ['join'],
        params: slugParams,
        response: { 200: joinChallengeResponse, ...publicErrors },
      },
    },
    async (request, reply) => {
      const { parameters, signature = '' } = await service.challenge(request.params.slug, request.ip);
      return reply.header('cache-control', 'no-store').send({ parameters: { ...parameters }, signature });
    },
  );

  app.post(
    '/join/:slug',
    {
      schema: {
        tags: ['join'],
        params: slugParams,
        body: joinBody,
        response: { 200: joinAnswer, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      message: await service.request(request.params.slug, request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
      }),
    }),
  );

  app.get(
    '/join/:slug/qr.svg',
    { schema: { tags: ['join'], params: slugParams } },
    async (request, reply) => {
      const svg = await service.qrCode(request.params.slug, 'svg', request.ip);
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(svg);
    },
  );

  app.get(
    '/join/:slug/qr.png',
    { schema: { tags: ['join'], params: slugParams } },
    async (request, reply) => {
      const png = await service.qrCode(request.params.slug, 'png', request.ip);
      return reply.type('image/png').header('cache-control', 'public, max-age=3600').send(png);
    },
  );
};
