import { errorResponse } from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { requireFullUser } from '../billing/billing.routes.ts';
import { messagingMessages } from './messaging.messages.ts';
import type { MessagingService } from './messaging.service.ts';

const phoneNumberState = z.object({
  number: z.string().nullable(),
  status: z.enum(['pending', 'verified', 'failed']).nullable(),
  error: z.string().nullable(),
});
const phoneNumberResponse = z.object({
  success: z.literal(true),
  data: phoneNumberState,
  message: z.string().optional(),
});
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
  502: errorResponse,
};
const requestBody = z.object({
  areaCode: z
    .string()
    .trim()
    .regex(/^[2-9]\d{2}$/, 'Area code must be 3 digits')
    .optional()
    .or(z.literal('').transform(() => undefined)),
});

/** The business's dedicated text number (issue 5): GET /phone-number, POST /phone-number/{request,verify}. */
export const phoneNumberRoutes: FastifyPluginAsyncZod<{
  messagingService: MessagingService;
  authenticate: (request: never, reply: never) => Promise<void>;
}> = async (app, { messagingService, authenticate }) => {
  const guarded = { onRequest: authenticate as never, preValidation: requireFullUser };
  const userId = (request: FastifyRequest) => sessionOf(request).user.id;
  const schema = <T extends object>(extra: T) => ({
    tags: ['phone number'],
    security: [{ bearerAuth: [] }],
    ...extra,
  });

  app.get(
    '/phone-number',
    { ...guarded, schema: schema({ response: { 200: phoneNumberResponse, ...errors } }) },
    async (request) => ({
      success: true as const,
      data: await messagingService.getPhoneNumber(userId(request)),
    }),
  );

  app.post(
    '/phone-number/request',
    {
      ...guarded,
      schema: schema({ body: requestBody.optional(), response: { 200: phoneNumberResponse, ...errors } }),
    },
    async (request) => ({
      success: true as const,
      data: await messagingService.requestPhoneNumber(userId(request), request.body?.areaCode),
      message: messagingMessages.requested,
    }),
  );

  app.post(
    '/phone-number/verify',
    { ...guarded, schema: schema({ response: { 200: phoneNumberResponse, ...errors } }) },
    async (request) => {
      const data = await messagingService.verifyPhoneNumber(userId(request));
      const message =
        data.status === 'verified'
          ? messagingMessages.verified
          : data.status === 'failed'
            ? `${messagingMessages.failedVerification}${data.error ? ` ${data.error}` : ''}`
            : messagingMessages.stillPending;
      return { success: true as const, data, message };
    },
  );
};
