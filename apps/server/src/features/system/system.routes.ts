import {
  authMessages,
  type BillingConfig,
  billingConfigSchema,
  planCatalogueSchema,
} from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { type Database, pingDatabase } from '../../db/client.ts';

/**
 * Health and the web app's configuration, all public. None of them names the database or a provider (issue
 * 24): that tells an attacker which vendor to phish or which webhook to forge, and no caller needs it. A
 * probe reads the status code; the operator has the providers as labels of GET /metrics (METRICS_TOKEN) and
 * the database in DATABASE_URL.
 */
export const systemRoutes: FastifyPluginAsyncZod<{
  config: Config;
  db: Database;
  billing: BillingConfig;
  /** Set when the instance starts shutting down: readiness answers 503 so the proxy stops sending work. */
  lifecycle: { draining: boolean };
}> = async (app, { config, db, billing, lifecycle }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        response: { 200: z.object({ success: z.literal(true), status: z.literal('ok') }) },
      },
    },
    async () => {
      await pingDatabase(db);
      return { success: true as const, status: 'ok' as const };
    },
  );

  // Liveness: the process answers (no database call), so a database outage does not get instances restarted.
  app.get(
    '/health/live',
    {
      schema: {
        tags: ['system'],
        response: { 200: z.object({ success: z.literal(true), status: z.literal('ok') }) },
      },
    },
    async () => ({ success: true as const, status: 'ok' as const }),
  );

  // Readiness: this instance can take traffic (the database answers within 2 s, not shutting down).
  app.get(
    '/health/ready',
    {
      schema: {
        tags: ['system'],
        response: {
          200: z.object({ success: z.literal(true), status: z.literal('ready') }),
          503: z.object({ success: z.literal(false), message: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      if (lifecycle.draining)
        return reply.status(503).send({ success: false as const, message: authMessages.shuttingDown });
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          pingDatabase(db),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('database check timed out')), 2_000);
          }),
        ]);
      } catch {
        return reply.status(503).send({ success: false as const, message: authMessages.serviceUnavailable });
      } finally {
        clearTimeout(timer);
      }
      return { success: true as const, status: 'ready' as const };
    },
  );

  /**
   * What the web app needs to render, and only that: the sign-in buttons' public ids, which card form to show
   * (billing), and whether the local mailbox and phone stand in for email and texts (their notes and the
   * test numbers). Never the name of the email or SMS provider in use.
   */
  app.get(
    '/config',
    {
      schema: {
        tags: ['system'],
        response: {
          200: z.object({
            success: z.literal(true),
            googleClientId: z.string().nullable(),
            facebookAppId: z.string().nullable(),
            appleClientId: z.string().nullable(),
            /** Emails land in the local mailbox (/dev/mailbox): the code and reset pages say where to look. */
            localMailbox: z.boolean(),
            /** Business numbers come from the 555-01xx test range and verify at once (the local phone). */
            localPhone: z.boolean(),
            billing: billingConfigSchema,
            /** The operator's plan catalogue (issue 39): what the plan page and the limits show. */
            plans: planCatalogueSchema,
            /** What one text segment costs, for the templates' cost per alert. */
            smsSegmentPrice: z.object({ amount: z.number(), currency: z.string() }),
          }),
        },
      },
    },
    async () => ({
      success: true as const,
      googleClientId: config.social.google?.clientId ?? null,
      // Only when the secret is set too: without it the server cannot check a Facebook token.
      facebookAppId: config.social.facebook?.appId ?? null,
      appleClientId: config.social.apple?.clientId ?? null,
      localMailbox: config.email.provider === 'local',
      localPhone: config.sms.provider === 'local',
      billing,
      plans: config.plans,
      smsSegmentPrice: config.smsSegmentPrice,
    }),
  );
};
