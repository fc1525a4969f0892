import {
  conversationResponse,
  createCustomerBody,
  csvBody,
  customerResponse,
  importPreviewResponse,
  importResponse,
  messageTemplateKeySchema,
  messageTemplateResponse,
  messageTemplatesResponse,
  reorderBody,
  sendTextBody,
  textMessageResponse,
  timeZoneBody,
  timeZoneResponse,
  updateCustomerBody,
  updateTemplateBody,
  waitlistListQuery,
  waitlistListResponse,
  waitlistMessages,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { billingErrors, requireFullUser } from '../billing/billing.routes.ts';
import type { WaitlistService } from './waitlist.service.ts';

const bearer = [{ bearerAuth: [] }];
const idParams = z.object({ id: z.string().uuid() });

/** The waitlist, its texts, templates and the business time zone (issue 5); full users only, like billing. */
export const waitlistRoutes: FastifyPluginAsyncZod<{
  waitlistService: WaitlistService;
  authenticate: (request: never, reply: never) => Promise<void>;
}> = async (app, { waitlistService: service, authenticate }) => {
  const guarded = { onRequest: authenticate as never, preValidation: requireFullUser };
  const userOf = (request: FastifyRequest) => sessionOf(request).user;
  const schema = <T extends object>(extra: T) => ({ tags: ['waitlist'], security: bearer, ...extra });

  app.get(
    '/waitlist',
    {
      ...guarded,
      schema: schema({
        querystring: waitlistListQuery,
        response: { 200: waitlistListResponse, ...billingErrors },
      }),
    },
    async (request) => ({ success: true as const, ...(await service.list(userOf(request), request.query)) }),
  );

  app.post(
    '/waitlist',
    {
      ...guarded,
      schema: schema({ body: createCustomerBody, response: { 201: customerResponse, ...billingErrors } }),
    },
    async (request, reply) => {
      const data = await service.create(userOf(request), request.body);
      return reply
        .status(201)
        .send({ success: true as const, data, message: waitlistMessages.customerAdded });
    },
  );

  app.post(
    '/waitlist/reorder',
    {
      ...guarded,
      schema: schema({
        body: reorderBody,
        response: {
          200: waitlistListResponse.pick({ success: true, data: true }).extend({ message: z.string() }),
          ...billingErrors,
        },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.reorder(userOf(request), request.body.ids),
      message: waitlistMessages.reordered,
    }),
  );

  app.post(
    '/waitlist/import/preview',
    {
      ...guarded,
      schema: schema({ body: csvBody, response: { 200: importPreviewResponse, ...billingErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.importPreview(userOf(request), request.body.csv),
    }),
  );

  app.post(
    '/waitlist/import',
    {
      ...guarded,
      bodyLimit: 600 * 1024,
      schema: schema({ body: csvBody, response: { 200: importResponse, ...billingErrors } }),
    },
    async (request) => {
      const data = await service.importCommit(userOf(request), request.body.csv);
      return { success: true as const, data, message: waitlistMessages.imported(data.imported) };
    },
  );

  app.patch(
    '/waitlist/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: updateCustomerBody,
        response: { 200: customerResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.update(userOf(request), request.params.id, request.body),
      message: waitlistMessages.customerUpdated,
    }),
  );

  app.delete(
    '/waitlist/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: customerResponse, ...billingErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.remove(userOf(request), request.params.id),
      message: waitlistMessages.customerRemoved,
    }),
  );

  app.get(
    '/waitlist/:id/messages',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: conversationResponse, ...billingErrors } }),
    },
    async (request) => ({
      success: true as const,
      ...(await service.conversation(userOf(request), request.params.id)),
    }),
  );

  app.post(
    '/waitlist/:id/messages',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: sendTextBody,
        response: { 201: textMessageResponse, ...billingErrors },
      }),
    },
    async (request, reply) => {
      const data = await service.sendText(userOf(request), request.params.id, request.body.body);
      return reply.status(201).send({ success: true as const, data, message: waitlistMessages.textQueued });
    },
  );

  app.get(
    '/message-templates',
    { ...guarded, schema: schema({ response: { 200: messageTemplatesResponse, ...billingErrors } }) },
    async (request) => ({ success: true as const, data: await service.templates(userOf(request)) }),
  );

  app.put(
    '/message-templates/:key',
    {
      ...guarded,
      schema: schema({
        params: z.object({ key: messageTemplateKeySchema }),
        body: updateTemplateBody,
        response: { 200: messageTemplateResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.updateTemplate(userOf(request), request.params.key, request.body.body),
      message: waitlistMessages.templateUpdated,
    }),
  );

  app.get(
    '/settings/time-zone',
    {
      ...guarded,
      schema: schema({ response: { 200: timeZoneResponse.omit({ message: true }), ...billingErrors } }),
    },
    async (request) => ({ success: true as const, data: { timeZone: userOf(request).timeZone } }),
  );

  app.put(
    '/settings/time-zone',
    {
      ...guarded,
      schema: schema({ body: timeZoneBody, response: { 200: timeZoneResponse, ...billingErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.setTimeZone(userOf(request), request.body.timeZone),
      message: waitlistMessages.timeZoneUpdated,
    }),
  );
};
