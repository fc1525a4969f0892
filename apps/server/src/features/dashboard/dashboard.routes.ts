import {
  earningsQuery,
  earningsResponse,
  errorResponse,
  weeklySummaryBody,
  weeklySummaryMessages,
  weeklySummaryResponse,
} from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toUserDto } from '../../lib/user.dto.ts';
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

  /** The weekly summary email's switch (Account → Information); any signed-in owner may set it. */
  app.put(
    '/dashboard/weekly-summary',
    {
      onRequest: authenticate,
      schema: {
        tags: ['dashboard'],
        security: [{ bearerAuth: [] }],
        body: weeklySummaryBody,
        response: { 200: weeklySummaryResponse, 400: errorResponse, 401: errorResponse },
      },
    },
    async (request) => {
      const { enabled } = request.body;
      const user = await service.setWeeklySummary(sessionOf(request).user, enabled);
      return {
        success: true as const,
        data: toUserDto(user),
        message: enabled ? weeklySummaryMessages.turnedOn : weeklySummaryMessages.turnedOff,
      };
    },
  );
};
