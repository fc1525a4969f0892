import { localConfirmSetupBody, localConfirmSetupResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import type { LocalBillingProvider } from '../../providers/billing/local.ts';
import { billingErrors, requireFullUser } from './billing.routes.ts';
import type { BillingService } from './billing.service.ts';
import type { BillingWorker } from './billing.worker.ts';

const MAX_ADVANCE_DAYS = 800;

/**
 * The local provider's API (registered only while billing is local): the card confirmation that Stripe.js's
 * confirmCardSetup does with Stripe, and the dev billing clock, so a period end or a trial end can be
 * reached without waiting (like /dev/mailbox, a development tool of the embedded provider).
 */
export const localBillingRoutes: FastifyPluginAsyncZod<{
  billingService: BillingService;
  billingWorker: BillingWorker;
  provider: LocalBillingProvider;
  authenticate: (request: never, reply: never) => Promise<void>;
  /** The local tools' guard (plugins/local-tools.ts); undefined leaves the billing clock out entirely. */
  toolsGuard: ((request: never, reply: never) => Promise<void>) | undefined;
}> = async (app, { billingService, billingWorker, provider, authenticate, toolsGuard }) => {
  app.post(
    '/billing/local/setup-intents/confirm',
    {
      onRequest: authenticate as never,
      preValidation: requireFullUser,
      schema: {
        tags: ['billing'],
        summary: 'Local billing only: confirms a setup intent with a test card (the role of Stripe.js)',
        security: [{ bearerAuth: [] }],
        body: localConfirmSetupBody,
        response: { 200: localConfirmSetupResponse, ...billingErrors },
      },
    },
    async (request) => {
      const { clientSecret, ...card } = request.body;
      const { paymentMethodId } = await billingService.confirmLocalSetupIntent(
        sessionOf(request).user,
        clientSecret,
        card,
      );
      return { success: true as const, paymentMethodId };
    },
  );

  if (!toolsGuard) return;
  const tool = { onRequest: toolsGuard as never };

  const clockAnswer = z.object({
    success: z.literal(true),
    /** The billing clock, ISO 8601. */
    now: z.string(),
    offsetDays: z.number(),
    periodEnds: z.number().int(),
    trialsExpired: z.number().int(),
  });

  app.post(
    '/dev/billing/advance',
    {
      ...tool,
      schema: {
        // A local tool, not part of the public API (issue 12): left out of the OpenAPI document.
        hide: true,
        tags: ['dev'],
        summary: 'Local billing only: moves the billing clock forward and applies what fell due',
        body: z.object({
          days: z
            .number({ error: 'days must be a number' })
            .positive('days must be more than 0')
            .max(MAX_ADVANCE_DAYS, `days must be at most ${MAX_ADVANCE_DAYS}`),
        }),
        response: { 200: clockAnswer, 400: billingErrors[400] },
      },
    },
    async (request) => {
      await provider.advanceClock(Math.round(request.body.days * 24 * 60 * 60 * 1000));
      const { now, outcomes, trialsExpired } = await billingWorker.runOnce();
      return {
        success: true as const,
        now: now.toISOString(),
        offsetDays: (await provider.clockOffsetMs()) / 86_400_000,
        periodEnds: outcomes.length,
        trialsExpired,
      };
    },
  );

  app.post(
    '/dev/billing/reset',
    {
      ...tool,
      schema: {
        hide: true,
        tags: ['dev'],
        summary: 'Local billing only: puts the billing clock back on the real time',
        response: { 200: clockAnswer.pick({ success: true, now: true, offsetDays: true }) },
      },
    },
    async () => {
      const now = await provider.resetClock();
      return { success: true as const, now: now.toISOString(), offsetDays: 0 };
    },
  );

  app.get(
    '/dev/billing/clock',
    {
      ...tool,
      schema: {
        hide: true,
        tags: ['dev'],
        response: { 200: clockAnswer.pick({ success: true, now: true, offsetDays: true }) },
      },
    },
    async () => ({
      success: true as const,
      now: (await billingService.now()).toISOString(),
      offsetDays: (await provider.clockOffsetMs()) / 86_400_000,
    }),
  );
};
