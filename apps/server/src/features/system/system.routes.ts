import { authMessages, type BillingConfig, billingConfigSchema } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { type Database, pingDatabase } from '../../db/client.ts';

export const systemRoutes: FastifyPluginAsyncZod<{
  config: Config;
  db: Database;
  databaseKind: string;
  billing: BillingConfig;
  /** Set when the instance starts shutting down: readiness answers 503 so the proxy stops sending work. */
  lifecycle: { draining: boolean };
}> = async (app, { config, db, databaseKind, billing, lifecycle }) => {
  app.get(
    '/health',
    {
      schema: {
        tags: ['system'],
        response: {
          200: z.object({ success: z.literal(true), status: z.literal('ok'), database: z.string() }),
        },
      },
    },
    async () => {
      await pingDatabase(db);
      return { success: true as const, status: 'ok' as const, database: databaseKind };
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
          200: z.object({ success: z.literal(true), status: z.literal('ready'), database: z.string() }),
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
      return { success: true as const, status: 'ready' as const, database: databaseKind };
    },
  );

  /** What the web app needs to know about this server's providers; nothing secret. */
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
            emailProvider: z.enum(['local', 'smtp']),
            /** 'local': business numbers come from the 555-01xx test range and verify at once. */
            smsProvider: z.enum(['local', 'plivo']),
            billing: billingConfigSchema,
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
      emailProvider: config.email.provider,
      smsProvider: config.sms.provider,
      billing,
    }),
  );
};
