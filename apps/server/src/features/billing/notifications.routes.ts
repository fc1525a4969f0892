import { billingMessages, messageResponse, planChangeNotificationBody } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { billingErrors, requireFullUser } from './billing.routes.ts';
import type { BillingService } from './billing.service.ts';

/** SPEC §7 "Notifications": the web calls these after each billing change; each emails the owner once. */
export const notificationsRoutes: FastifyPluginAsyncZod<{
  billingService: BillingService;
  authenticate: (request: never, reply: never) => Promise<void>;
}> = async (app, { billingService, authenticate }) => {
  const guarded = { onRequest: authenticate as never, preValidation: requireFullUser };
  const schema = { tags: ['notifications'], security: [{ bearerAuth: [] }] };
  const sent = { success: true as const, message: billingMessages.notificationSent };

  app.post(
    '/notifications/plan-change',
    {
      ...guarded,
      schema: {
        ...schema,
        body: planChangeNotificationBody,
        response: { 200: messageResponse, ...billingErrors },
      },
    },
    async (request) => {
      await billingService.notify(sessionOf(request).user, { kind: 'plan-change', ...request.body });
      return sent;
    },
  );

  app.post(
    '/notifications/plan-cancel',
    { ...guarded, schema: { ...schema, response: { 200: messageResponse, ...billingErrors } } },
    async (request) => {
      await billingService.notify(sessionOf(request).user, { kind: 'plan-cancel' });
      return sent;
    },
  );

  app.post(
    '/notifications/billing-update',
    { ...guarded, schema: { ...schema, response: { 200: messageResponse, ...billingErrors } } },
    async (request) => {
      await billingService.notify(sessionOf(request).user, { kind: 'billing-update' });
      return sent;
    },
  );
};
