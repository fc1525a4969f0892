import {
  errorResponse,
  pushKeyResponse,
  pushMessages,
  pushSettingsResponse,
  pushSubscriptionBody,
  pushUnsubscribeBody,
} from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toUserDto } from '../../lib/user.dto.ts';
import { sessionOf } from '../../plugins/authenticate.ts';
import type { Guard } from '../../plugins/guards.ts';
import type { PushService } from './push.service.ts';

/** Web push for the owner's devices (issue 14): the VAPID public key, subscribe (on) and unsubscribe (off). */
export const pushRoutes: FastifyPluginAsyncZod<{
  pushService: PushService;
  authenticate: Guard;
}> = async (app, { pushService, authenticate }) => {
  const common = { tags: ['push'], security: [{ bearerAuth: [] }] };

  app.get(
    '/push/public-key',
    {
      onRequest: authenticate,
      schema: { ...common, response: { 200: pushKeyResponse, 401: errorResponse } },
    },
    async () => ({ success: true as const, data: { publicKey: await pushService.publicKey() } }),
  );

  app.post(
    '/push/subscriptions',
    {
      onRequest: authenticate,
      schema: {
        ...common,
        body: pushSubscriptionBody,
        response: { 200: pushSettingsResponse, 400: errorResponse, 401: errorResponse, 409: errorResponse },
      },
    },
    async (request) => {
      const user = await pushService.subscribe(sessionOf(request).user, request.body);
      return { success: true as const, data: toUserDto(user), message: pushMessages.turnedOn };
    },
  );

  app.delete(
    '/push/subscriptions',
    {
      onRequest: authenticate,
      schema: {
        ...common,
        body: pushUnsubscribeBody,
        response: { 200: pushSettingsResponse, 400: errorResponse, 401: errorResponse },
      },
    },
    async (request) => {
      const user = await pushService.unsubscribe(sessionOf(request).user, request.body?.endpoint);
      return { success: true as const, data: toUserDto(user), message: pushMessages.turnedOff };
    },
  );
};
