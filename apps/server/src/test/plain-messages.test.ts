import { isCatalogueMessage } from '@waitlist/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { owner } from '../features/waitlist/waitlist.test-helpers.ts';
import { auth, createTestApp, type TestApp, uniqueIp } from './test-app.ts';

/**
 * Every validation answer of the API is plain English from the contract's catalogue (issue 27): bodies, query
 * strings and route parameters, the contract's schemas and the routes' own, past every limit.
 */

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = (await owner(t)).token;
});
afterAll(() => t.close());

const long = (length: number) => 'x'.repeat(length);

type Case = [string, InjectOptions & { method: string; url: string }, boolean?];

/** [what, request, as the owner]: each must be answered 400 in the catalogue's words. */
const cases: Case[] = [
  // bodies (the contract's schemas)
  [
    'register: over-long names, a number for the email',
    {
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: { firstName: long(101), lastName: long(500), email: 42, password: long(129) },
    },
  ],
  ['login: no fields at all', { method: 'POST', url: '/api/v1/auth/login', payload: {} }],
  [
    'a customer: a 1001-character note, day 9, a bad consent',
    {
      method: 'POST',
      url: '/api/v1/waitlist',
      payload: {
        name: long(101),
        phone: '12',
        notes: long(1001),
        consentMethod: 'telepathy',
        preferences: [{ days: [9], from: '25:00', to: '09:00' }],
        serviceId: 'not-an-id',
        vip: 'yes',
      },
    },
    true,
  ],
  [
    'a reorder: ids that are no ids',
    { method: 'POST', url: '/api/v1/waitlist/reorder', payload: { ids: ['x'] } },
    true,
  ],
  [
    'a slot: wave size 0, a 2-day claim window',
    {
      method: 'POST',
      url: '/api/v1/openings',
      payload: {
        startsAt: '',
        durationMinutes: 1.5,
        service: long(201),
        mode: 'waves',
        waveSize: 0,
        claimWindowMinutes: 5000,
      },
    },
    true,
  ],
  [
    'a service: a 101-character name',
    { method: 'POST', url: '/api/v1/services', payload: { name: long(101), durationMinutes: 'long' } },
    true,
  ],
  [
    'a plan change: an unknown plan',
    {
      method: 'POST',
      url: '/api/v1/stripe/create-checkout-session',
      payload: { planType: 'gold', billingPeriod: 'daily' },
    },
    true,
  ],
  ['not an object at all', { method: 'POST', url: '/api/v1/auth/forgotpassword', payload: [1, 2, 3] }],
  // query strings
  ['the waitlist: an unknown status', { method: 'GET', url: '/api/v1/waitlist?status=lost' }, true],
  ['the inbox: a cursor that is no number', { method: 'GET', url: '/api/v1/inbox?before=abc' }, true],
  ['earnings: an unknown range', { method: 'GET', url: '/api/v1/dashboard/earnings?range=year' }, true],
  // route parameters (the routes' own schemas)
  ['a customer id that is no id', { method: 'GET', url: '/api/v1/waitlist/not-a-uuid/messages' }, true],
  ['an opening id that is no id', { method: 'GET', url: '/api/v1/openings/123' }, true],
  ['a service id that is no id', { method: 'DELETE', url: '/api/v1/services/123' }, true],
  [
    'an unknown template key',
    { method: 'PUT', url: '/api/v1/message-templates/poem', payload: { body: 'Hi' } },
    true,
  ],
  ['a join link over 64 characters', { method: 'GET', url: `/api/v1/join/${long(65)}` }],
  [
    'a reset token over 200 characters',
    {
      method: 'PUT',
      url: `/api/v1/auth/resetpassword/${long(201)}`,
      payload: { password: 'secret-123' },
    },
  ],
];

/** Requests Fastify itself refuses before any schema: a body it cannot read, a path past its length. */
const unreadable: Case[] = [
  [
    'a body that is not JSON',
    {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    },
  ],
  [
    'an empty JSON body',
    {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: '',
      headers: { 'content-type': 'application/json' },
    },
  ],
  [
    'a body that is not JSON at all',
    {
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: 'email=a',
      headers: { 'content-type': 'text/csv' },
    },
  ],
  ['a path parameter of 600 characters', { method: 'GET', url: `/api/v1/join/${long(600)}` }],
];

describe('validation answers', () => {
  it.each(unreadable)("%s: refused in the catalogue's words", async (_what, request) => {
    const response = await t.app.inject({ ...request, remoteAddress: uniqueIp() } as InjectOptions);
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    const body = response.json() as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(isCatalogueMessage(body.message), body.message).toBe(true);
  });

  it.each(cases)("%s: 400 in the catalogue's words", async (_what, request, asOwner) => {
    const response = await t.app.inject({
      ...request,
      remoteAddress: uniqueIp(),
      headers: { ...(asOwner ? auth(token) : {}), ...request.headers },
    } as InjectOptions);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json() as { message: string; errors?: Record<string, string> };
    const messages = [body.message, ...Object.values(body.errors ?? {})];
    expect(messages.filter((message) => !isCatalogueMessage(message))).toEqual([]);
    expect(messages.join(' ')).not.toMatch(
      /Too (big|small)|Invalid (input|option|string|UUID)|expected [a-z]+,|received/,
    );
  });

  it('says which field, in words, for an over-long customer name', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/waitlist',
      headers: auth(token),
      payload: { name: long(101), phone: '+12125550100', consentMethod: 'verbal' },
    });
    expect(response.json().errors).toEqual({ name: 'Must be at most 100 characters' });
  });
});
