import {
  authMessages,
  billingDetailsBody,
  billingMessages,
  checkoutSessionBody,
  errorResponse,
  invoicesResponse,
  messageResponse,
  paymentMethodBody,
  paymentMethodChangeResponse,
  paymentMethodsResponse,
  planChangeBody,
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
import { Forbidden } from '../../lib/errors.ts';
import { sessionOf } from '../../plugins/authenticate.ts';
import type { BillingService } from './billing.service.ts';

export const billingErrors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
  503: errorResponse,
};
const bearer = [{ bearerAuth: [] }];

/**
 * SPEC §6: billing is for full users, that is verified and with business details submitted (or approved).
 * Runs after `authenticate`.
 */
export async function requireFullUser(request: FastifyRequest) {
  const { user } = sessionOf(request);
  if (!user.verified) throw new Forbidden(authMessages.notVerified);
  if (user.businessVerificationStatus !== 'submitted' && user.businessVerificationStatus !== 'approved') {
    throw new Forbidden(billingMessages.businessDetailsRequired);
  }
}

/** Every `/stripe/*` call of SPEC §7, whichever provider is active (the paths keep the SPEC's names). */
export const billingRoutes: FastifyPluginAsyncZod<{
  billingService: BillingService;
  authenticate: (request: never, reply: never) => Promise<void>;
}> = async (app, { billingService, authenticate }) => {
  const guarded = { onRequest: authenticate as never, preValidation: requireFullUser };
  const userOf = (request: FastifyRequest) => sessionOf(request).user;
  const schema = <T extends object>(extra: T) => ({ tags: ['billing'], security: bearer, ...extra });

  app.get(
    '/stripe/pricing',
    { ...guarded, schema: schema({ response: { 200: pricingResponse, ...billingErrors } }) },
    async () => ({ success: true as const, pricing: await billingService.getPricing() }),
  );

  app.get(
    '/stripe/subscription',
    { ...guarded, schema: schema({ response: { 200: subscriptionResponse, ...billingErrors } }) },
    async (request) => ({
      success: true as const,
      subscription: await billingService.getSubscription(userOf(request)),
    }),
  );

  app.post(
    '/stripe/create-checkout-session',
    {
      ...guarded,
      schema: schema({
        body: checkoutSessionBody,
        response: { 200: redirectSessionResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await billingService.createCheckoutSession(userOf(request), request.body),
    }),
  );

  app.post(
    '/stripe/update-subscription',
    {
      ...guarded,
      schema: schema({
        body: updateSubscriptionBody,
        response: { 200: subscriptionChangeResponse, ...billingErrors },
      }),
    },
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
    {
      ...guarded,
      schema: schema({
        body: planChangeBody,
        response: { 200: subscriptionChangeResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      ...(await billingService.changePlan(userOf(request), request.body)),
    }),
  );

  app.post(
    '/stripe/cancel-subscription',
    { ...guarded, schema: schema({ response: { 200: subscriptionActionResponse, ...billingErrors } }) },
    async (request) => ({ success: true as const, ...(await billingService.cancel(userOf(request))) }),
  );

  app.post(
    '/stripe/resume-subscription',
    { ...guarded, schema: schema({ response: { 200: subscriptionActionResponse, ...billingErrors } }) },
    async (request) => ({ success: true as const, ...(await billingService.resume(userOf(request))) }),
  );

  app.get(
    '/stripe/payment-methods',
    { ...guarded, schema: schema({ response: { 200: paymentMethodsResponse, ...billingErrors } }) },
    async (request) => ({
      success: true as const,
      paymentMethods: await billingService.listPaymentMethods(userOf(request)),
    }),
  );

  app.post(
    '/stripe/payment-methods',
    {
      ...guarded,
      schema: schema({
        body: paymentMethodBody,
        response: { 200: paymentMethodChangeResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      message: billingMessages.paymentMethodAdded,
      paymentMethods: await billingService.attachPaymentMethod(userOf(request), request.body.paymentMethodId),
    }),
  );

  app.post(
    '/stripe/payment-methods/default',
    {
      ...guarded,
      schema: schema({
        body: paymentMethodBody,
        response: { 200: paymentMethodChangeResponse, ...billingErrors },
      }),
    },
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
    {
      ...guarded,
      schema: schema({
        params: z.object({ id: z.string().min(1).max(255) }),
        response: { 200: paymentMethodChangeResponse, ...billingErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      message: billingMessages.paymentMethodDeleted,
      paymentMethods: await billingService.detachPaymentMethod(userOf(request), request.params.id),
    }),
  );

  app.get(
    '/stripe/invoices',
    { ...guarded, schema: schema({ response: { 200: invoicesResponse, ...billingErrors } }) },
    async (request) => ({
      success: true as const,
      invoices: await billingService.listInvoices(userOf(request)),
    }),
  );

  app.post(
    '/stripe/setup-intent',
    { ...guarded, schema: schema({ response: { 200: setupIntentResponse, ...billingErrors } }) },
    async (request) => ({
      success: true as const,
      ...(await billingService.createSetupIntent(userOf(request))),
    }),
  );

  app.post(
    '/stripe/update-billing-details',
    {
      ...guarded,
      schema: schema({ body: billingDetailsBody, response: { 200: messageResponse, ...billingErrors } }),
    },
    async (request) => {
      await billingService.updateBillingDetails(userOf(request), request.body);
      return { success: true as const, message: billingMessages.billingDetailsUpdated };
    },
  );

  app.post(
    '/stripe/create-portal-session',
    { ...guarded, schema: schema({ response: { 200: redirectSessionResponse, ...billingErrors } }) },
    async (request) => ({
      success: true as const,
      data: await billingService.createPortalSession(userOf(request)),
    }),
  );
};
