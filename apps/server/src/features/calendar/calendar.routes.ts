import {
  calendarConnectBody,
  calendarConnectionResponse,
  calendarConnectionsResponse,
  calendarDayQuery,
  calendarDayResponse,
  calendarMessages,
  calendarOAuthStartResponse,
  calendarPendingConnectionResponse,
  calendarProposalResponse,
  calendarProposalsResponse,
  calendarSettingsBody,
  deletedResponse,
  openingPreviewResponse,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { sessionOf } from '../../plugins/authenticate.ts';
import { bearerSecurity, type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import { connectionDto } from './calendar.repo.ts';
import type { CalendarService } from './calendar.service.ts';
import { browserKeyOf } from './calendar-oauth.ts';
import { OAUTH_KINDS } from './oauth-apps.ts';
import type { Proposals } from './proposals.ts';

const idParams = z.object({ id: z.string().uuid() });
const kindParams = z.object({ kind: z.enum(OAUTH_KINDS) });
const oauthCallbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(500).optional(),
  error: z.string().max(200).optional(),
});
const userOf = (request: FastifyRequest) => sessionOf(request).user;
const schema = <T extends object>(extra: T) => ({ tags: ['calendar'], security: bearerSecurity, ...extra });

interface CalendarRouteOptions {
  calendarService: CalendarService;
  proposals: Proposals;
  authenticate: Guard;
}

/**
 * Connected calendars (issue 29), full users only: connect, tune and disconnect calendars; the cancellations
 * they proposed, opened or dismissed with a tap; the owner's day with the calendar beside the openings.
 */
export const calendarRoutes: FastifyPluginAsyncZod<CalendarRouteOptions> = async (
  app,
  { calendarService: service, proposals, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  await app.register(calendarOAuthRoutes, { calendarService: service, proposals, authenticate });
  await app.register(proposalRoutes, { calendarService: service, proposals, authenticate });

  app.get(
    '/calendar/connections',
    { ...guarded, schema: schema({ response: { 200: calendarConnectionsResponse, ...guardedErrors } }) },
    async (request) => ({
      success: true as const,
      data: (await service.list(userOf(request))).map(connectionDto),
      available: [...service.available],
    }),
  );

  app.post(
    '/calendar/connections',
    {
      ...guarded,
      schema: schema({
        body: calendarConnectBody,
        response: { 201: calendarConnectionResponse, ...guardedErrors },
      }),
    },
    async (request, reply) => {
      const row = await service.connect(userOf(request), request.body);
      return reply
        .status(201)
        .send({ success: true as const, data: connectionDto(row), message: calendarMessages.connected });
    },
  );

  app.patch(
    '/calendar/connections/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: calendarSettingsBody,
        response: { 200: calendarConnectionResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: connectionDto(await service.update(userOf(request), request.params.id, request.body)),
      message: calendarMessages.settingsSaved,
    }),
  );

  app.delete(
    '/calendar/connections/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: deletedResponse, ...guardedErrors } }),
    },
    async (request) => {
      await service.disconnect(userOf(request), request.params.id);
      return { success: true as const, message: calendarMessages.disconnected };
    },
  );

  app.post(
    '/calendar/connections/:id/sync',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: calendarConnectionResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: connectionDto(await service.syncNow(userOf(request), request.params.id)),
      message: calendarMessages.synced,
    }),
  );

  app.get(
    '/calendar/day',
    {
      ...guarded,
      schema: schema({
        querystring: calendarDayQuery,
        response: { 200: calendarDayResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await proposals.day(userOf(request), request.query.date, request.query.days ?? 1),
    }),
  );
};

/**
 * The cancellations a calendar proposed (issue 29): "Text the waitlist" first shows who gets the text (the
 * preview, issue 39), then opens the slot; or the owner dismisses one.
 */
const proposalRoutes: FastifyPluginAsyncZod<CalendarRouteOptions> = async (
  app,
  { proposals, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  app.get(
    '/calendar/proposals',
    { ...guarded, schema: schema({ response: { 200: calendarProposalsResponse, ...guardedErrors } }) },
    async (request) => ({
      success: true as const,
      data: await proposals.waiting(userOf(request)),
      timeZone: userOf(request).timeZone,
    }),
  );

  // "Text the waitlist" first shows who gets the text, as a slot opened by hand does (issue 39).
  app.post(
    '/calendar/proposals/:id/preview',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: openingPreviewResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await proposals.preview(userOf(request), request.params.id),
    }),
  );

  app.post(
    '/calendar/proposals/:id/open',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: calendarProposalResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await proposals.open(userOf(request), request.params.id),
      message: calendarMessages.proposalOpened,
    }),
  );

  app.post(
    '/calendar/proposals/:id/dismiss',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: calendarProposalResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await proposals.dismiss(userOf(request), request.params.id),
      message: calendarMessages.proposalDismissed,
    }),
  );
};

/**
 * Google and Microsoft calendars (issues 29, 38): the consent link is asked for with the owner's session and
 * bound to this browser by an HttpOnly cookie; the provider's redirect comes back without a session and is
 * trusted by its signed, once-only state and that cookie. It holds the account it came back with until the
 * owner, signed in, confirms it (or cancels it) on the Calendar tab.
 */
const calendarOAuthRoutes: FastifyPluginAsyncZod<CalendarRouteOptions> = async (
  app,
  { calendarService: service, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  app.post(
    '/calendar/oauth/:kind/start',
    {
      ...guarded,
      schema: schema({ params: kindParams, response: { 200: calendarOAuthStartResponse, ...guardedErrors } }),
    },
    async (request, reply) => {
      const { url, cookie } = await service.oauthStart(userOf(request).id, request.params.kind);
      reply.header('set-cookie', cookie);
      return { success: true as const, url };
    },
  );

  app.get(
    '/calendar/oauth/:kind/callback',
    { schema: { hide: true, params: kindParams, querystring: oauthCallbackQuery } },
    async (request, reply) => {
      const { kind } = request.params;
      const { code, state, error } = request.query;
      // The binding is spent whatever happens: a second try starts again from the Calendar tab.
      reply.header('set-cookie', service.oauthCookie(kind, null));
      const failed = (message: string) =>
        reply.redirect(`/account?tab=calendar&calendarError=${encodeURIComponent(message)}`, 303);
      if (error || !code || !state) return failed(calendarMessages.oauthFailed);
      try {
        const pending = await service.oauthCallback(kind, code, state, browserKeyOf(request.headers.cookie));
        return reply.redirect(`/account?tab=calendar&pending=${pending.id}`, 303);
      } catch (failure) {
        request.log.warn({ err: failure, kind }, 'calendar not connected');
        return failed(failure instanceof AppError ? failure.message : calendarMessages.oauthFailed);
      }
    },
  );

  app.get(
    '/calendar/oauth/pending/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        response: { 200: calendarPendingConnectionResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.oauthPending(userOf(request), request.params.id),
    }),
  );

  app.post(
    '/calendar/oauth/pending/:id/confirm',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        response: { 200: calendarConnectionResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: connectionDto(await service.oauthConfirm(userOf(request), request.params.id)),
      message: calendarMessages.connected,
    }),
  );

  app.delete(
    '/calendar/oauth/pending/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: deletedResponse, ...guardedErrors } }),
    },
    async (request) => {
      await service.oauthCancel(userOf(request), request.params.id);
      return { success: true as const, message: calendarMessages.oauthCancelled };
    },
  );
};
