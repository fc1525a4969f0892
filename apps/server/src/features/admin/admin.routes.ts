import { adminUsersQuery, adminUsersResponse, errorResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Guard, requireAdmin } from '../../plugins/guards.ts';
import type { AdminService } from './admin.service.ts';

/** GET /admin/users (SPEC §7): admins only; visitors get 401, everyone else 403. */
export const adminRoutes: FastifyPluginAsyncZod<{
  adminService: AdminService;
  authenticate: Guard;
}> = async (app, { adminService, authenticate }) => {
  app.get(
    '/admin/users',
    {
      onRequest: authenticate,
      // Before validation, so a non-admin learns nothing from a 400 about the query.
      preValidation: requireAdmin,
      schema: {
        tags: ['admin'],
        security: [{ bearerAuth: [] }],
        description:
          'Every user, newest first by default. Optional filters (verified, plan), sort and order, a search across name, email, business and phone digits, and paging.',
        querystring: adminUsersQuery,
        response: { 200: adminUsersResponse, 400: errorResponse, 401: errorResponse, 403: errorResponse },
      },
    },
    async (request) => ({ success: true as const, ...(await adminService.listUsers(request.query)) }),
  );
};
