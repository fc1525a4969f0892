import { earningsQuery, earningsResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { billingErrors, requireFullUser } from '../billing/billing.routes.ts';
import type { DashboardService } from './dashboard.service.ts';

/** The earnings dashboard (issues 5 and 14); full users only. */
export const dashboardRoutes: FastifyPluginAsyncZod<{
  dashboardService: DashboardService;
  authenticate: (request: never, reply: never) => Promise<void>;
}> = async (app, { dashboardService: service, authenticate }) => {
  app.get(
    '/dashboard/earnings',
    {
      onRequest: authenticate as never,
      preValidation: requireFullUser,
      schema: {
        tags: ['dashboard'],
        security: [{ bearerAuth: [] }],
        querystring: earningsQuery,
        response: { 200: earningsResponse, ...billingErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.earnings(sessionOf(request).user, request.query),
    }),
  );
};
