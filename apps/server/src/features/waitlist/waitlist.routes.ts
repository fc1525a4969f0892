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
  plainLettersBody,
  plainLettersResponse,
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
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { WaitlistService } from './waitlist.service.ts';

const bearer = [{ bearerAuth: [] }];
const idParams = z.object({ id: z.string().uuid() });

interface WaitlistRouteOptions {
  waitlistService: WaitlistService;
  authenticate: Guard;
}

/** Signed-in full users only, like billing. */
const guardedBy = (authenticate: Guard) => ({ onRequest: authenticate, preValidation: requireFullUser });
const userOf = (request: FastifyRequest) => sessionOf(request).user;
const schema = <T extends object>(extra: T) => ({ tags: ['waitlist'], security: bearer, ...extra });

/** The waitlist itself: list, add, reorder, edit and remove customers. */
const customerRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (
  app,
  { waitlistService: service, authenticate },
) => {
  const guarded = guardedBy(authenticate);

  app.get(
    '/waitlist',
    {
      ...guarded,
      schema: schema({
        querystring: waitlistListQuery,
        response: { 200: waitlistListResponse, ...guardedErrors },
      }),
    },
    async (request) => ({ success: true as const, ...(await service.list(userOf(request), request.query)) }),
  );

  app.post(
    '/waitlist',
    {
      ...guarded,
      schema: schema({ body: createCustomerBody, response: { 201: customerResponse, ...guardedErrors } }),
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
          ...guardedErrors,
        },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.reorder(userOf(request), request.body.ids),
      message: waitlistMessages.reordered,
    }),
  );

  app.patch(
    '/waitlist/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: updateCustomerBody,
        response: { 200: customerResponse, ...guardedErrors },
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
      schema: schema({ params: idParams, response: { 200: customerResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.remove(userOf(request), request.params.id),
      message: waitlistMessages.customerRemoved,
    }),
  );

  /** Undoes a removal (issue 27): back in line, at their old place if removed within the last 7 days. */
  app.post(
    '/waitlist/:id/restore',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: customerResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.restore(userOf(request), request.params.id),
      message: waitlistMessages.customerRestored,
    }),
  );
};

/** Adding customers from a CSV file: the preview with each row's errors, then the import. */
const importRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (
  app,
  { waitlistService: service, authenticate },
) => {
  const guarded = guardedBy(authenticate);

  app.post(
    '/waitlist/import/preview',
    {
      ...guarded,
      schema: schema({ body: csvBody, response: { 200: importPreviewResponse, ...guardedErrors } }),
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
      schema: schema({ body: csvBody, response: { 200: importResponse, ...guardedErrors } }),
    },
    async (request) => {
      const data = await service.importCommit(userOf(request), request.body.csv);
      return { success: true as const, data, message: waitlistMessages.imported(data.imported) };
    },
  );
};

/** A customer's texts: the conversation, and a text from the owner. */
const customerTextRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (
  app,
  { waitlistService: service, authenticate },
) => {
  const guarded = guardedBy(authenticate);

  app.get(
    '/waitlist/:id/messages',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: conversationResponse, ...guardedErrors } }),
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
        response: { 201: textMessageResponse, ...guardedErrors },
      }),
    },
    async (request, reply) => {
      const data = await service.sendText(userOf(request), request.params.id, request.body.body);
      return reply.status(201).send({ success: true as const, data, message: waitlistMessages.textQueued });
    },
  );
};

/** The owner's message templates. */
const templateRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (
  app,
  { waitlistService: service, authenticate },
) => {
  const guarded = guardedBy(authenticate);

  app.get(
    '/message-templates',
    { ...guarded, schema: schema({ response: { 200: messageTemplatesResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, data: await service.templates(userOf(request)) }),
  );

  app.put(
    '/message-templates/:key',
    {
      ...guarded,
      schema: schema({
        params: z.object({ key: messageTemplateKeySchema }),
        body: updateTemplateBody,
        response: { 200: messageTemplateResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.updateTemplate(
        userOf(request),
        request.params.key,
        request.body.body,
        request.body.language,
      ),
      message: waitlistMessages.templateUpdated,
    }),
  );

  // Spanish texts in plain letters (issue 28): a business setting the template editor reads and sets.
  app.get(
    '/settings/plain-letters',
    {
      ...guarded,
      schema: schema({ response: { 200: plainLettersResponse.omit({ message: true }), ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: { plainSpanishLetters: userOf(request).plainSpanishLetters },
    }),
  );

  app.put(
    '/settings/plain-letters',
    {
      ...guarded,
      schema: schema({ body: plainLettersBody, response: { 200: plainLettersResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.setPlainSpanishLetters(userOf(request), request.body.plainSpanishLetters),
      message: waitlistMessages.plainLettersUpdated,
    }),
  );
};

/** The business time zone. */
const timeZoneRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (
  app,
  { waitlistService: service, authenticate },
) => {
  const guarded = guardedBy(authenticate);

  app.get(
    '/settings/time-zone',
    {
      ...guarded,
      schema: schema({ response: { 200: timeZoneResponse.omit({ message: true }), ...guardedErrors } }),
    },
    async (request) => ({ success: true as const, data: { timeZone: userOf(request).timeZone } }),
  );

  app.put(
    '/settings/time-zone',
    {
      ...guarded,
      schema: schema({ body: timeZoneBody, response: { 200: timeZoneResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.setTimeZone(userOf(request), request.body.timeZone),
      message: waitlistMessages.timeZoneUpdated,
    }),
  );
};

/** The waitlist, its texts, templates and the business time zone (issue 5); full users only, like billing. */
export const waitlistRoutes: FastifyPluginAsyncZod<WaitlistRouteOptions> = async (app, options) => {
  await app.register(customerRoutes, options);
  await app.register(importRoutes, options);
  await app.register(customerTextRoutes, options);
  await app.register(templateRoutes, options);
  await app.register(timeZoneRoutes, options);
};
