import { authMessages, errorResponse, updateUserBody, userDataResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Forbidden } from '../../lib/errors.ts';
import { profileUpdateMessage, toUserDto } from '../../lib/user.dto.ts';
import { sessionOf } from '../../plugins/authenticate.ts';
import type { Guard } from '../../plugins/guards.ts';
import type { AuthService } from '../auth/auth.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<{
  authService: AuthService;
  authenticate: Guard;
}> = async (app, { authService, authenticate }) => {
  /**
   * Clients (the mobile app) send the whole user object. Only the profile fields are read from it;
   * admin, verified, subscription and every other field are ignored, and only the user themself may call it.
   */
  app.put(
    '/users/:id',
    {
      onRequest: authenticate,
      schema: {
        tags: ['users'],
        security: [{ bearerAuth: [] }],
        params: z.object({ id: z.string() }),
        body: updateUserBody,
        response: {
          200: userDataResponse,
          400: errorResponse,
          401: errorResponse,
          403: errorResponse,
          409: errorResponse,
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      if (request.params.id !== session.user.id) throw new Forbidden(authMessages.notAllowed);
      const { id: _ignored, ...changes } = request.body;
      const result = await authService.updateProfile(session.user.id, changes);
      return { success: true as const, data: toUserDto(result.user), message: profileUpdateMessage(result) };
    },
  );
};
