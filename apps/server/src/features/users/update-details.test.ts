import { authMessages, screenMessages, validationMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailVerifications } from '../../db/schema.ts';
import {
  auth,
  latestCodeFor,
  login,
  registerUser,
  secretsIn,
  uniqueEmail,
  uniqueIp,
} from '../../test/test-app.ts';

import {
  details,
  emailsTo,
  forbiddenFields,
  me,
  other,
  owner,
  t,
  updateDetails,
  userRow,
  useUsersTestApp,
  verifyEmail,
  withoutUpdatedAt,
} from './users.test-helpers.ts';

/** PUT /auth/updatedetails: the profile fields only, validation, and a new email proved by its code. */

useUsersTestApp();

describe('PUT /auth/updatedetails', () => {
  it('saves every profile field (trimmed, phone as 10 digits) and returns the user without secrets', async () => {
    const response = await updateDetails(
      owner.token,
      details({
        firstName: ' Nina ',
        lastName: ' Costa ',
        businessName: ' Nina Hair ',
        businessPhone: '555.987.6543',
        businessAddress: ' 22 Elm Road ',
        city: ' Shelbyville ',
        state: ' IN ',
        zip: ' 46176 ',
      }),
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const saved = {
      firstName: 'Nina',
      lastName: 'Costa',
      email: owner.email,
      businessName: 'Nina Hair',
      businessPhone: '5559876543',
      businessAddress: '22 Elm Road',
      city: 'Shelbyville',
      state: 'IN',
      zip: '46176',
    };
    expect(body).toMatchObject({ success: true, message: authMessages.detailsUpdated, data: saved });
    expect(body.message).toBe(screenMessages.profileUpdated);
    expect(secretsIn(body)).toEqual([]);
    expect(await userRow(owner.id)).toMatchObject({ ...saved, verified: true });
    expect(await me(owner.token)).toMatchObject(saved);
  });

  it('keeps the business phone when the request leaves it out (the profile form never sends it)', async () => {
    expect((await updateDetails(owner.token, details({ businessPhone: '5551112222' }))).statusCode).toBe(200);
    const { businessPhone: _notSent, ...withoutPhone } = details({ firstName: 'Bella' });
    const response = await updateDetails(owner.token, withoutPhone);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      firstName: 'Bella',
      businessPhone: '5551112222',
      businessVerification: { businessPhone: '5551112222' },
    });
    expect((await userRow(owner.id)).businessPhone).toBe('5551112222');
    // Sent empty, it is cleared.
    const cleared = await updateDetails(owner.token, details({ businessPhone: '' }));
    expect(cleared.json().data.businessPhone).toBe('');
  });

  it('keeps the account verified and sends no code when the email is the same in another case', async () => {
    const sent = await emailsTo(owner.email);
    const response = await updateDetails(owner.token, details({ email: ` ${owner.email.toUpperCase()} ` }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: authMessages.detailsUpdated,
      data: { email: owner.email, verified: true },
    });
    expect(await emailsTo(owner.email)).toBe(sent);
  });

  it.each([
    ['{ firstName: "" }', { firstName: '' }, 'firstName', validationMessages.firstNameRequired],
    ['{ firstName: "   " }', { firstName: '   ' }, 'firstName', validationMessages.firstNameRequired],
    ['firstName missing', { firstName: undefined }, 'firstName', validationMessages.firstNameRequired],
    [
      'firstName of 101 characters',
      { firstName: 'N'.repeat(101) },
      'firstName',
      validationMessages.nameTooLong,
    ],
    ['{ lastName: "" }', { lastName: '' }, 'lastName', validationMessages.lastNameRequired],
    ['lastName missing', { lastName: undefined }, 'lastName', validationMessages.lastNameRequired],
    ['lastName of 101 characters', { lastName: 'C'.repeat(101) }, 'lastName', validationMessages.nameTooLong],
    ['email missing', { email: undefined }, 'email', validationMessages.emailRequired],
    ['{ email: "  " }', { email: '  ' }, 'email', validationMessages.emailRequired],
    ['{ email: "not-an-email" }', { email: 'not-an-email' }, 'email', validationMessages.emailInvalid],
    [
      '{ businessPhone: "555-1234" }',
      { businessPhone: '555-1234' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
    [
      '{ businessPhone: "155512345678" }',
      { businessPhone: '155512345678' },
      'businessPhone',
      validationMessages.businessPhoneInvalid,
    ],
    [
      'businessName of 121 characters',
      { businessName: 'B'.repeat(121) },
      'businessName',
      'Must be at most 120 characters',
    ],
    [
      'businessAddress of 201 characters',
      { businessAddress: 'A'.repeat(201) },
      'businessAddress',
      'Must be at most 200 characters',
    ],
    ['city of 101 characters', { city: 'C'.repeat(101) }, 'city', 'Must be at most 100 characters'],
    ['state of 51 characters', { state: 'S'.repeat(51) }, 'state', 'Must be at most 50 characters'],
    ['zip of 21 characters', { zip: '9'.repeat(21) }, 'zip', 'Must be at most 20 characters'],
  ])('refuses %s with 400 and "%s: %s", and changes nothing', async (_label, overrides, field, message) => {
    const before = await userRow(owner.id);
    const response = await updateDetails(owner.token, details({ firstName: 'Changed', ...overrides }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message, errors: { [field]: message } });
    expect(await userRow(owner.id)).toEqual(before);
  });

  it('a new email waits for the code sent to it: the account keeps its address and stays verified until then', async () => {
    const mover = await registerUser(t);
    await verifyEmail(mover);
    const oldAddressMail = await emailsTo(mover.email);
    const newEmail = uniqueEmail('moved');

    const response = await updateDetails(
      mover.token,
      details({ email: newEmail.toUpperCase(), firstName: 'Mo', businessPhone: '' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: authMessages.emailChangePending(newEmail),
      data: { email: mover.email, pendingEmail: newEmail, verified: true, firstName: 'Mo' },
    });
    expect(secretsIn(response.json())).toEqual([]);
    expect(await userRow(mover.id)).toMatchObject({
      email: mover.email,
      pendingEmail: newEmail,
      verified: true,
    });
    expect(await emailsTo(mover.email)).toBe(oldAddressMail);
    const code = await latestCodeFor(t, newEmail);
    expect(code).toMatch(/^\d{6}$/);

    // Until the code is entered the new address does not sign in; the old one does.
    expect((await login(t, newEmail, mover.password)).statusCode).toBe(401);
    expect((await login(t, mover.email, mover.password)).statusCode).toBe(200);
    const confirm = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/confirm-email',
      headers: auth(mover.token),
      payload: { verificationCode: code },
      remoteAddress: uniqueIp(),
    });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.json()).toMatchObject({ message: authMessages.emailChanged, user: { email: newEmail } });
    expect(await me(mover.token)).toMatchObject({ email: newEmail, pendingEmail: null, verified: true });
    expect((await login(t, newEmail, mover.password)).statusCode).toBe(200);
  });

  it('refuses an email another account uses (any case) with 409, and changes nothing on either account', async () => {
    const ownerBefore = await userRow(owner.id);
    const otherBefore = await userRow(other.id);
    const otherMail = await emailsTo(other.email);
    const response = await updateDetails(
      owner.token,
      details({ email: other.email.toUpperCase(), firstName: 'Sneaky' }),
    );
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      success: false,
      message: authMessages.emailTaken,
      errors: { email: authMessages.emailTaken },
    });
    expect(await userRow(owner.id)).toEqual(ownerBefore);
    expect(await userRow(other.id)).toEqual(otherBefore);
    expect(await emailsTo(other.email)).toBe(otherMail);
  });

  it('ignores every field that is not a profile field', async () => {
    const before = await userRow(owner.id);
    const codeBefore = await t.database.db
      .select()
      .from(emailVerifications)
      .where(eq(emailVerifications.userId, owner.id));
    const response = await updateDetails(owner.token, {
      ...forbiddenFields,
      ...details({ firstName: before.firstName }),
      id: other.id,
      _id: other.id,
    });
    expect(response.statusCode).toBe(200);
    const after = await userRow(owner.id);
    expect(withoutUpdatedAt(after)).toEqual({
      ...withoutUpdatedAt(before),
      businessName: 'Bella Salon',
      businessPhone: '5551234567',
      businessAddress: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      lastName: 'Rossi',
    });
    expect(after).toMatchObject({ admin: false, verified: true, subscriptionPlan: 'free_trial' });
    expect(
      await t.database.db.select().from(emailVerifications).where(eq(emailVerifications.userId, owner.id)),
    ).toEqual(codeBefore);
  });

  it('answers 401 to a visitor', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/auth/updatedetails',
      payload: details(),
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ success: false, message: authMessages.notAuthenticated });
  });
});
