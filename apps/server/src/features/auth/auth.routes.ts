import {
  authMessages,
  authResponse,
  businessVerificationBody,
  confirmEmailBody,
  errorResponse,
  forgotPasswordBody,
  loginBody,
  meResponse,
  messageResponse,
  registerBody,
  resetPasswordBody,
  screenMessages,
  updateDetailsBody,
  updatePasswordBody,
  userDataResponse,
  userResponse,
  verifyAccountBody,
} from '@waitlist/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Unauthorized } from '../../lib/errors.ts';
import { profileUpdateMessage, toUserDto } from '../../lib/user.dto.ts';
import { bearerToken, sessionOf } from '../../plugins/authenticate.ts';
import type { Guard } from '../../plugins/guards.ts';
import type { AuthService } from './auth.service.ts';

const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  409: errorResponse,
  429: errorResponse,
};
const bearer = [{ bearerAuth: [] }];

/**
 * The optional profile fields keep their stored value when a request leaves them out (the contract's schema
 * would read a missing one as ''): the web's profile form never sends the business phone (SPEC §5), and
 * saving the form must not erase the phone given during onboarding. Sent as '' or null, a field is cleared.
 */
const updateDetailsRequest = updateDetailsBody.partial({
  businessName: true,
  businessPhone: true,
  businessAddress: true,
  city: true,
  state: true,
  zip: true,
});

type AuthRouteOptions = { authService: AuthService; authenticate: Guard };

/** Sign-up, sign-in, sign-out, and GET /auth/me. */
const sessionRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { authService, authenticate }) => {
  const guarded = { onRequest: authenticate };

  app.post(
    '/auth/register',
    { schema: { tags: ['auth'], body: registerBody, response: { 201: authResponse, ...errors } } },
    async (request, reply) => {
      const { token, user } = await authService.register(request.body, request.ip);
      return reply
        .status(201)
        .send({ success: true, token, user: toUserDto(user), message: authMessages.registered });
    },
  );

  app.post(
    '/auth/login',
    { schema: { tags: ['auth'], body: loginBody, response: { 200: authResponse, ...errors } } },
    async (request) => {
      const { token, user } = await authService.login(request.body, request.ip);
      return { success: true as const, token, user: toUserDto(user), message: authMessages.loginSuccessful };
    },
  );

  app.post(
    '/auth/logout',
    {
      ...guarded,
      schema: { tags: ['auth'], security: bearer, response: { 200: messageResponse, ...errors } },
    },
    async (request) => {
      await authService.logout(sessionOf(request).sessionId);
      return { success: true as const, message: authMessages.loggedOut };
    },
  );

  // The cheapest authenticated call, and the one every screen makes: not the generic `authenticate` hook
  // (the whole user row) but one prepared query that answers the user as JSON text, written as it comes
  // (issue 16). Same 401s; the schema still documents the answer.
  app.get(
    '/auth/me',
    { schema: { tags: ['auth'], security: bearer, response: { 200: meResponse, ...errors } } },
    async (request, reply) => {
      const token = bearerToken(request);
      if (!token) throw new Unauthorized(authMessages.notAuthenticated);
      const user = await authService.me(token);
      if (!user) throw new Unauthorized(authMessages.sessionExpired);
      // JSON text the database wrote, sent as it is (Fastify sends a string unserialised); the type provider
      // knows the answer only as an object, hence the cast.
      const answer = `{"success":true,"data":${user}}` as unknown as z.output<typeof meResponse>;
      return reply.type('application/json; charset=utf-8').send(answer);
    },
  );
};

/** The forgotten password (reset link and reset) and a change of password. */
const passwordRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (
  app,
  { authService, authenticate },
) => {
  const guarded = { onRequest: authenticate };

  app.post(
    '/auth/forgotpassword',
    { schema: { tags: ['auth'], body: forgotPasswordBody, response: { 200: messageResponse, ...errors } } },
    async (request) => {
      await authService.forgotPassword(request.body.email, request.ip);
      return { success: true as const, message: screenMessages.forgotPasswordSent };
    },
  );

  app.put(
    '/auth/resetpassword/:resettoken',
    {
      schema: {
        tags: ['auth'],
        params: z.object({ resettoken: z.string().min(1).max(200) }),
        body: resetPasswordBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      await authService.resetPassword(request.params.resettoken, request.body.password);
      return { success: true as const, message: screenMessages.passwordResetSuccess };
    },
  );

  app.put(
    '/auth/updatepassword',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        security: bearer,
        body: updatePasswordBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      const { user, sessionId } = sessionOf(request);
      await authService.updatePassword({ userId: user.id, sessionId }, request.body, request.ip);
      return { success: true as const, message: screenMessages.passwordUpdated };
    },
  );
};

/** The account's address: its verification code, and a change of address confirmed or dropped. */
const addressRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { authService, authenticate }) => {
  const guarded = { onRequest: authenticate };

  app.post(
    '/auth/send-verification',
    {
      ...guarded,
      schema: { tags: ['auth'], security: bearer, response: { 200: messageResponse, ...errors } },
    },
    async (request) => {
      await authService.sendVerification(sessionOf(request).user.id, request.ip);
      return { success: true as const, message: screenMessages.newCodeSent };
    },
  );

  app.post(
    '/auth/verify-account',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        security: bearer,
        body: verifyAccountBody,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const user = await authService.verifyAccount(
        sessionOf(request).user.id,
        request.body.verificationCode,
        request.ip,
      );
      return { success: true as const, user: toUserDto(user), message: screenMessages.accountVerified };
    },
  );

  app.post(
    '/auth/confirm-email',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        summary:
          'Enters the code sent to a pending new email address; the address then becomes the account’s',
        security: bearer,
        body: confirmEmailBody,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const user = await authService.confirmEmail(
        sessionOf(request).user.id,
        request.body.verificationCode,
        request.ip,
      );
      return { success: true as const, user: toUserDto(user), message: authMessages.emailChanged };
    },
  );

  app.delete(
    '/auth/pending-email',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        summary: 'Cancels a pending email change',
        security: bearer,
        response: { 200: userResponse, ...errors },
      },
    },
    async (request) => {
      const user = await authService.cancelEmailChange(sessionOf(request).user.id);
      return { success: true as const, user: toUserDto(user), message: authMessages.emailChangeCancelled };
    },
  );
};

/** The owner's details, business verification, and deleting the account. */
const accountRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, { authService, authenticate }) => {
  const guarded = { onRequest: authenticate };

  app.post(
    '/auth/business-verification',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        security: bearer,
        body: businessVerificationBody,
        response: { 200: messageResponse, ...errors },
      },
    },
    async (request) => {
      await authService.submitBusinessVerification(sessionOf(request).user.id, request.body);
      return { success: true as const, message: authMessages.businessSubmitted };
    },
  );

  app.put(
    '/auth/updatedetails',
    {
      ...guarded,
      schema: {
        tags: ['auth'],
        security: bearer,
        body: updateDetailsRequest,
        response: { 200: userDataResponse, ...errors },
      },
    },
    async (request) => {
      const result = await authService.updateProfile(sessionOf(request).user.id, request.body);
      return { success: true as const, data: toUserDto(result.user), message: profileUpdateMessage(result) };
    },
  );

  app.delete(
    '/auth/account',
    {
      ...guarded,
      schema: { tags: ['auth'], security: bearer, response: { 200: messageResponse, ...errors } },
    },
    async (request) => {
      await authService.deleteAccount(sessionOf(request).user.id);
      return { success: true as const, message: authMessages.accountDeleted };
    },
  );
};

export const authRoutes: FastifyPluginAsyncZod<AuthRouteOptions> = async (app, options) => {
  await app.register(sessionRoutes, options);
  await app.register(passwordRoutes, options);
  await app.register(addressRoutes, options);
  await app.register(accountRoutes, options);
};
