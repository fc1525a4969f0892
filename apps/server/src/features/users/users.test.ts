import { authMessages, validationMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { login, secretsIn, uniqueEmail } from '../../test/test-app.ts';

import {
  forbiddenFields,
  me,
  other,
  owner,
  putUser,
  t,
  userRow,
  useUsersTestApp,
  withoutUpdatedAt,
} from './users.test-helpers.ts';

/** PUT /users/:id: the mobile app's profile update, for the signed-in user themself only. */

useUsersTestApp();

describe('PUT /users/:id', () => {
  it('updates only the fields sent, for the signed-in user themself', async () => {
    const before = await userRow(owner.id);
    const response = await putUser(owner.token, owner.id, {
      firstName: 'Nora',
      businessPhone: '(555) 222-3333',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      success: true,
      message: authMessages.detailsUpdated,
      data: { id: owner.id, firstName: 'Nora', businessPhone: '5552223333', lastName: before.lastName },
    });
    expect(secretsIn(body)).toEqual([]);
    expect(withoutUpdatedAt(await userRow(owner.id))).toEqual({
      ...withoutUpdatedAt(before),
      firstName: 'Nora',
      businessPhone: '5552223333',
    });
  });

  it('takes the whole user object the mobile app sends, and writes only its profile fields', async () => {
    const before = await userRow(owner.id);
    const current = await me(owner.token);
    const response = await putUser(owner.token, owner.id, {
      ...current,
      ...forbiddenFields,
      _id: other.id,
      city: 'Capital City',
    });
    expect(response.statusCode).toBe(200);
    expect(withoutUpdatedAt(await userRow(owner.id))).toEqual({
      ...withoutUpdatedAt(before),
      city: 'Capital City',
    });
    expect(await me(owner.token)).toMatchObject({
      admin: false,
      verified: true,
      subscriptionPlan: 'free_trial',
      subscriptionStatus: 'trialing',
      isExternalAuth: false,
      provider: null,
      plivoNumber: null,
      businessVerification: { status: null },
    });
    // The password did not change either.
    expect((await login(t, owner.email, 'hacked123')).statusCode).toBe(401);
    expect((await login(t, owner.email, owner.password)).statusCode).toBe(200);
  });

  it.each([
    ['another user', () => other.id],
    ['an id that is not a user', () => 'not-a-uuid'],
  ])("answers 403 for %s's id and changes nothing", async (_label, id) => {
    const otherBefore = await userRow(other.id);
    const ownerBefore = await userRow(owner.id);
    const response = await putUser(owner.token, id(), {
      firstName: 'Hijacked',
      email: uniqueEmail('hijack'),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAllowed });
    expect(await userRow(other.id)).toEqual(otherBefore);
    expect(await userRow(owner.id)).toEqual(ownerBefore);
  });

  it.each([
    [{ email: 'nope' }, 'email', validationMessages.emailInvalid],
    [{ firstName: '' }, 'firstName', validationMessages.firstNameRequired],
    [{ businessPhone: '12345' }, 'businessPhone', validationMessages.businessPhoneInvalid],
  ])('refuses %j with 400 "%s: %s"', async (payload, field, message) => {
    const before = await userRow(owner.id);
    const response = await putUser(owner.token, owner.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { [field]: message } });
    expect(await userRow(owner.id)).toEqual(before);
  });

  it('refuses an email another account uses with 409', async () => {
    const before = await userRow(owner.id);
    const response = await putUser(owner.token, owner.id, { email: other.email });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(authMessages.emailTaken);
    expect(await userRow(owner.id)).toEqual(before);
  });

  it('answers 401 to a visitor and changes nothing', async () => {
    const before = await userRow(other.id);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/users/${other.id}`,
      payload: { admin: true, firstName: 'Anon' },
    });
    expect(response.statusCode).toBe(401);
    expect(await userRow(other.id)).toEqual(before);
  });
});
