import { earningsQuery, earningsResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { DashboardService } from './dashboard.service.ts';

/** The earnings dashboard (issues 5 and 14); full users only. */
export const dashboardRoutes: FastifyPluginAsyncZod<{
  dashboardService: DashboardService;
  authenticate: Guard;
}> = async (app, { dashboardService: service, authenticate }) => {
  app.get(
    '/dashboard/earnings',
    {
      onRequest: authenticate,
      preValidation: requireFullUser,
      schema: {
        tags: ['dashboard'],
        security: [{ bearerAuth: [] }],
        querystring: earningsQuery,
        response: { 200: earningsResponse, ...guardedErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.earnings(sessionOf(request).user, request.query),
    }),
  );
};
