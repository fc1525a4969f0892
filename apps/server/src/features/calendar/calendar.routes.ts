import {
  calendarConnectBody,
  calendarConnectionResponse,
  calendarConnectionsResponse,
  calendarDayQuery,
  calendarDayResponse,
  calendarMessages,
  calendarOAuthStartResponse,
  calendarProposalResponse,
  calendarProposalsResponse,
  calendarSettingsBody,
  deletedResponse,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { sessionOf } from '../../plugins/authenticate.ts';
import { bearerSecurity, type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import { connectionDto } from './calendar.repo.ts';
import type { CalendarService } from './calendar.service.ts';
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
    '/calendar/proposals',
    { ...guarded, schema: schema({ response: { 200: calendarProposalsResponse, ...guardedErrors } }) },
    async (request) => ({
      success: true as const,
      data: await proposals.waiting(userOf(request)),
      timeZone: userOf(request).timeZone,
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
 * Google and Microsoft calendars (issue 29): the consent link is asked for with the owner's session; the
 * provider's redirect comes back without one and is trusted by its signed state. The owner lands on the Calendar tab either way.
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
    async (request) => ({
      success: true as const,
      url: await service.oauthStart(userOf(request).id, request.params.kind),
    }),
  );

  app.get(
    '/calendar/oauth/:kind/callback',
    { schema: { hide: true, params: kindParams, querystring: oauthCallbackQuery } },
    async (request, reply) => {
      const { code, state, error } = request.query;
      if (error || !code || !state)
        return reply.redirect(
          `/account?tab=calendar&calendarError=${encodeURIComponent(calendarMessages.oauthFailed)}`,
          303,
        );
      try {
        await service.oauthCallback(request.params.kind, code, state);
        return reply.redirect(`/account?tab=calendar&connected=${request.params.kind}`, 303);
      } catch (failure) {
        request.log.warn({ err: failure, kind: request.params.kind }, 'calendar not connected');
        const message = failure instanceof AppError ? failure.message : calendarMessages.oauthFailed;
        return reply.redirect(`/account?tab=calendar&calendarError=${encodeURIComponent(message)}`, 303);
      }
    },
  );
};
