import {
  inboxMessages,
  inboxQuery,
  inboxResponse,
  inboxThreadResponse,
  sendTextBody,
  textMessageResponse,
  unreadResponse,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { InboxService } from './inbox.service.ts';

const customerParams = z.object({ id: z.string().uuid() });

/** The owner's inbox (issue 15); full users only, like the waitlist. */
export const inboxRoutes: FastifyPluginAsyncZod<{ inboxService: InboxService; authenticate: Guard }> = async (
  app,
  { inboxService: service, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  const userOf = (request: FastifyRequest) => sessionOf(request).user;
  const schema = <T extends object>(extra: T) => ({
    tags: ['inbox'],
    security: [{ bearerAuth: [] }],
    ...extra,
  });

  app.get(
    '/inbox',
    {
      ...guarded,
      schema: schema({ querystring: inboxQuery, response: { 200: inboxResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      ...(await service.conversations(userOf(request), request.query)),
    }),
  );

  app.get(
    '/inbox/unread',
    { ...guarded, schema: schema({ response: { 200: unreadResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, data: { unread: await service.unread(userOf(request)) } }),
  );

  app.get(
    '/inbox/:id',
    {
      ...guarded,
      schema: schema({ params: customerParams, response: { 200: inboxThreadResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      ...(await service.thread(userOf(request), request.params.id)),
    }),
  );

  app.post(
    '/inbox/:id/read',
    {
      ...guarded,
      schema: schema({ params: customerParams, response: { 200: unreadResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.markRead(userOf(request), request.params.id),
    }),
  );

  app.post(
    '/inbox/:id/reply',
    {
      ...guarded,
      schema: schema({
        params: customerParams,
        body: sendTextBody,
        response: { 201: textMessageResponse, ...guardedErrors },
      }),
    },
    async (request, reply) => {
      const data = await service.reply(userOf(request), request.params.id, request.body.body);
      return reply.status(201).send({ success: true as const, data, message: inboxMessages.replySent });
    },
  );
};
