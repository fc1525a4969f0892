import {
  billingDetailsBody,
  billingMessages,
  checkoutSessionBody,
  invoicesResponse,
  messageResponse,
  paymentMethodBody,
  paymentMethodChangeResponse,
  paymentMethodsResponse,
  planChangeBody,
  planChangePreviewQuery,
  planChangePreviewResponse,
  pricingResponse,
  redirectSessionResponse,
  setupIntentResponse,
  subscriptionActionResponse,
  subscriptionChangeResponse,
  subscriptionResponse,
  updateSubscriptionBody,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { BillingService } from './billing.service.ts';

const bearer = [{ bearerAuth: [] }];

type BillingRouteOptions = { billingService: BillingService; authenticate: Guard };

/** The shared pieces of every billing route: full-user guard, the user of the session, the route options. */
function routeKit(authenticate: Guard) {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  return {
    userOf: (request: FastifyRequest) => sessionOf(request).user,
    /** A full-user route answering `ok` (200) or one of the guarded errors; `extra` adds its body or params. */
    guardedRoute: <R extends z.ZodType, X extends object = object>(ok: R, extra?: X) => ({
      ...guarded,
      schema: {
        tags: ['billing'],
        security: bearer,
        response: { 200: ok, ...guardedErrors },
        ...(extra as X),
      },
    }),
  };
}

/** The plan: prices, the subscription, changing, cancelling and resuming it, checkout and the portal. */
const planRoutes: FastifyPluginAsyncZod<BillingRouteOptions> = async (
  app,
  { billingService, authenticate },
) => {
  const { userOf, guardedRoute } = routeKit(authenticate);

  app.get('/stripe/pricing', guardedRoute(pricingResponse), async () => ({
    success: true as const,
    pricing: await billingService.getPricing(),
  }));

  app.get('/stripe/subscription', guardedRoute(subscriptionResponse), async (request) => ({
    success: true as const,
    subscription: await billingService.getSubscription(userOf(request)),
  }));

  // Issue 27: the Confirm Plan Change dialog shows what is charged today before the owner confirms.
  app.get(
    '/stripe/plan-change-preview',
    guardedRoute(planChangePreviewResponse, { querystring: planChangePreviewQuery }),
    async (request) => ({
      success: true as const,
      data: await billingService.previewPlanChange(userOf(request), request.query),
    }),
  );

  app.post(
    '/stripe/create-checkout-session',
    guardedRoute(redirectSessionResponse, { body: checkoutSessionBody }),
    async (request) => ({
      success: true as const,
      data: await billingService.createCheckoutSession(userOf(request), request.body),
    }),
  );

  app.post(
    '/stripe/update-subscription',
    guardedRoute(subscriptionChangeResponse, { body: updateSubscriptionBody }),
    async (request) => {
      const { paymentMethodId, ...change } = request.body;
      return {
        success: true as const,
        ...(await billingService.changePlan(userOf(request), change, paymentMethodId)),
      };
    },
  );

  app.post(
    '/stripe/update-subscription-with-existing-payment',
    guardedRoute(subscriptionChangeResponse, { body: planChangeBody }),
    async (request) => ({
      success: true as const,
      ...(await billingService.changePlan(userOf(request), request.body)),
    }),
  );

  app.post('/stripe/cancel-subscription', guardedRoute(subscriptionActionResponse), async (request) => ({
    success: true as const,
    ...(await billingService.cancel(userOf(request))),
  }));

  app.post('/stripe/resume-subscription', guardedRoute(subscriptionActionResponse), async (request) => ({
    success: true as const,
    ...(await billingService.resume(userOf(request))),
  }));

  app.post('/stripe/create-portal-session', guardedRoute(redirectSessionResponse), async (request) => ({
    success: true as const,
    data: await billingService.createPortalSession(userOf(request)),
  }));
};

/** Cards, invoices and the billing details. */
const paymentRoutes: FastifyPluginAsyncZod<BillingRouteOptions> = async (
  app,
  { billingService, authenticate },
) => {
  const { userOf, guardedRoute } = routeKit(authenticate);

  app.get('/stripe/payment-methods', guardedRoute(paymentMethodsResponse), async (request) => ({
    success: true as const,
    paymentMethods: await billingService.listPaymentMethods(userOf(request)),
  }));

  app.post(
    '/stripe/payment-methods',
    guardedRoute(paymentMethodChangeResponse, { body: paymentMethodBody }),
    async (request) => ({
      success: true as const,
      message: billingMessages.paymentMethodAdded,
      paymentMethods: await billingService.attachPaymentMethod(userOf(request), request.body.paymentMethodId),
    }),
  );

  app.post(
    '/stripe/payment-methods/default',
    guardedRoute(paymentMethodChangeResponse, { body: paymentMethodBody }),
    async (request) => ({
      success: true as const,
      message: billingMessages.defaultPaymentMethodUpdated,
      paymentMethods: await billingService.setDefaultPaymentMethod(
        userOf(request),
        request.body.paymentMethodId,
      ),
    }),
  );

  app.delete(
    '/stripe/payment-methods/:id',
    guardedRoute(paymentMethodChangeResponse, { params: z.object({ id: z.string().min(1).max(255) }) }),
    async (request) => ({
      success: true as const,
      message: billingMessages.paymentMethodDeleted,
      paymentMethods: await billingService.detachPaymentMethod(userOf(request), request.params.id),
    }),
  );

  app.get('/stripe/invoices', guardedRoute(invoicesResponse), async (request) => ({
    success: true as const,
    invoices: await billingService.listInvoices(userOf(request)),
  }));

  app.post('/stripe/setup-intent', guardedRoute(setupIntentResponse), async (request) => ({
    success: true as const,
    ...(await billingService.createSetupIntent(userOf(request))),
  }));

  app.post(
    '/stripe/update-billing-details',
    guardedRoute(messageResponse, { body: billingDetailsBody }),
    async (request) => {
      await billingService.updateBillingDetails(userOf(request), request.body);
      return { success: true as const, message: billingMessages.billingDetailsUpdated };
    },
  );
};

/** Every `/stripe/*` call of SPEC §7, whichever provider is active (the paths keep the SPEC's names). */
export const billingRoutes: FastifyPluginAsyncZod<BillingRouteOptions> = async (app, options) => {
  await app.register(planRoutes, options);
  await app.register(paymentRoutes, options);
};
