import {
  createOpeningBody,
  offerMessages,
  openingPreviewResponse,
  openingResponse,
  openingsListResponse,
  releaseClaimBody,
  waitlistMessages,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { OpeningsService } from './openings.service.ts';

const bearer = [{ bearerAuth: [] }];
const idParams = z.object({ id: z.string().uuid() });

/** Openings (cancellation alerts); full users only. The earnings dashboard is in features/dashboard. */
export const openingsRoutes: FastifyPluginAsyncZod<{
  openingsService: OpeningsService;
  authenticate: Guard;
}> = async (app, { openingsService: service, authenticate }) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  const userOf = (request: FastifyRequest) => sessionOf(request).user;
  const schema = <T extends object>(extra: T) => ({ tags: ['openings'], security: bearer, ...extra });

  app.get(
    '/openings',
    { ...guarded, schema: schema({ response: { 200: openingsListResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, ...(await service.list(userOf(request))) }),
  );

  app.post(
    '/openings',
    {
      ...guarded,
      schema: schema({ body: createOpeningBody, response: { 201: openingResponse, ...guardedErrors } }),
    },
    async (request, reply) => {
      const data = await service.create(userOf(request), request.body);
      return reply
        .status(201)
        .send({ success: true as const, data, message: waitlistMessages.openingCreated });
    },
  );

  app.post(
    '/openings/preview',
    {
      ...guarded,
      schema: schema({
        body: createOpeningBody,
        response: { 200: openingPreviewResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.preview(userOf(request), request.body),
    }),
  );

  app.get(
    '/openings/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: openingResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.get(userOf(request), request.params.id),
    }),
  );

  app.post(
    '/openings/:id/release',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: releaseClaimBody.nullish(),
        response: { 200: openingResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.release(userOf(request), request.params.id, request.body?.note),
      message: offerMessages.claimReleased,
    }),
  );

  app.post(
    '/openings/:id/close',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: openingResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.close(userOf(request), request.params.id),
      message: waitlistMessages.openingClosed,
    }),
  );
};
