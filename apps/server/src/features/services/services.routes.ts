import {
  deletedResponse,
  offerMessages,
  offerSettingsBody,
  offerSettingsResponse,
  serviceBody,
  serviceResponse,
  servicesResponse,
  staffBody,
  staffListResponse,
  staffResponse,
} from '@waitlist/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.ts';
import { bearerSecurity, type Guard, guardedErrors, requireFullUser } from '../../plugins/guards.ts';
import type { ServicesService } from './services.service.ts';

const idParams = z.object({ id: z.string().uuid() });

interface ServicesRouteOptions {
  servicesService: ServicesService;
  authenticate: Guard;
}

const userOf = (request: FastifyRequest) => sessionOf(request).user;
const schemaOf =
  (tag: string) =>
  <T extends object>(extra: T) => ({ tags: [tag], security: bearerSecurity, ...extra });

/**
 * What a business sells and who does it, and its offer rules (issue 26); full users only. The offer policy
 * reads them when an opening is planned (features/openings).
 */
export const servicesRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (app, options) => {
  await app.register(serviceRoutes, options);
  await app.register(staffRoutes, options);
  await app.register(offerSettingsRoutes, options);
};

const serviceRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (
  app,
  { servicesService: service, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  const schema = schemaOf('services');

  app.get(
    '/services',
    { ...guarded, schema: schema({ response: { 200: servicesResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, data: await service.listServices(userOf(request)) }),
  );

  app.post(
    '/services',
    {
      ...guarded,
      schema: schema({ body: serviceBody, response: { 201: serviceResponse, ...guardedErrors } }),
    },
    async (request, reply) => {
      const data = await service.createService(userOf(request), request.body);
      return reply.status(201).send({ success: true as const, data, message: offerMessages.serviceSaved });
    },
  );

  app.put(
    '/services/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: serviceBody,
        response: { 200: serviceResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.updateService(userOf(request), request.params.id, request.body),
      message: offerMessages.serviceSaved,
    }),
  );

  app.delete(
    '/services/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: deletedResponse, ...guardedErrors } }),
    },
    async (request) => {
      await service.deleteService(userOf(request), request.params.id);
      return { success: true as const, message: offerMessages.serviceDeleted };
    },
  );
};

const staffRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (
  app,
  { servicesService: service, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  const schema = schemaOf('staff');

  app.get(
    '/staff',
    { ...guarded, schema: schema({ response: { 200: staffListResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, data: await service.listStaff(userOf(request)) }),
  );

  app.post(
    '/staff',
    { ...guarded, schema: schema({ body: staffBody, response: { 201: staffResponse, ...guardedErrors } }) },
    async (request, reply) => {
      const data = await service.createStaff(userOf(request), request.body);
      return reply.status(201).send({ success: true as const, data, message: offerMessages.staffSaved });
    },
  );

  app.put(
    '/staff/:id',
    {
      ...guarded,
      schema: schema({
        params: idParams,
        body: staffBody,
        response: { 200: staffResponse, ...guardedErrors },
      }),
    },
    async (request) => ({
      success: true as const,
      data: await service.updateStaff(userOf(request), request.params.id, request.body),
      message: offerMessages.staffSaved,
    }),
  );

  app.delete(
    '/staff/:id',
    {
      ...guarded,
      schema: schema({ params: idParams, response: { 200: deletedResponse, ...guardedErrors } }),
    },
    async (request) => {
      await service.deleteStaff(userOf(request), request.params.id);
      return { success: true as const, message: offerMessages.staffDeleted };
    },
  );
};

const offerSettingsRoutes: FastifyPluginAsyncZod<ServicesRouteOptions> = async (
  app,
  { servicesService: service, authenticate },
) => {
  const guarded = { onRequest: authenticate, preValidation: requireFullUser };
  const schema = schemaOf('settings');

  app.get(
    '/settings/offers',
    { ...guarded, schema: schema({ response: { 200: offerSettingsResponse, ...guardedErrors } }) },
    async (request) => ({ success: true as const, data: await service.offerSettings(userOf(request)) }),
  );

  app.put(
    '/settings/offers',
    {
      ...guarded,
      schema: schema({ body: offerSettingsBody, response: { 200: offerSettingsResponse, ...guardedErrors } }),
    },
    async (request) => ({
      success: true as const,
      data: await service.saveOfferSettings(userOf(request), request.body),
      message: offerMessages.settingsSaved,
    }),
  );
};
