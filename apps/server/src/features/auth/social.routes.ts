import { errorResponse, externalAuthBody, externalAuthResponse } from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { toUserDto } from '../../lib/user.dto.ts';
import type { SocialAuthService } from './social.service.ts';

export const socialAuthRoutes: FastifyPluginAsyncZod<{ socialAuthService: SocialAuthService }> = async (
  app,
  { socialAuthService },
) => {
  app.post(
    '/auth/external',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in or sign up with Google, Facebook or Apple',
        description:
          'The SPEC fields (firstName, lastName, email, provider, providerId) are what the client read from the ' +
          'provider and are never trusted alone: the body must also carry the proof, which the server verifies ' +
          'with the provider. Google: `idToken` (Identity Services credential) or `accessToken` (token flow). ' +
          'Facebook: `accessToken`. Apple: `idToken` and the raw `nonce`; new Apple accounts also need ' +
          '`phoneNumber`. A verified email+password account with the same email is linked; an unverified one is ' +
          'refused (409). `isNewUser` is true when the call created the account.',
        body: externalAuthBody,
        response: {
          200: externalAuthResponse,
          400: errorResponse,
          401: errorResponse,
          403: errorResponse,
          409: errorResponse,
          429: errorResponse,
          503: errorResponse,
        },
      },
    },
    async (request) => {
      const { token, user, isNewUser, message } = await socialAuthService.signIn(request.body, request.ip);
      return { success: true as const, token, user: toUserDto(user), message, isNewUser };
    },
  );
};
