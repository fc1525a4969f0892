import { type BillingConfig, billingConfigSchema } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { type Database, pingDatabase } from '../../db/client.ts';

export const systemRoutes: FastifyPluginAsyncZod<{
  config: Config;
  db: Database;
  databaseKind: string;
  billing: BillingConfig;
}> = async (app, { config, db, databaseKind, billing }) => {
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
