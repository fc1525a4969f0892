import { screen, waitFor } from '@testing-library/react';
import { authMessages, type User, validationMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { newVerifiedUser } from '../../test/fixtures.ts';
import { mockSignedIn } from '../../test/mock-api.ts';
import { renderApp } from '../../test/render-app.tsx';

/** The business phone field (UsPhoneField) on the business details form: pasted and typed numbers (issue 27). */

async function openBusinessDetails() {
  let user: User = newVerifiedUser();
  const api = mockSignedIn(() => user, {
    'POST /auth/business-verification': ({ body }) => {
      const { businessPhone } = body as { businessPhone: string };
      user = { ...user, businessPhone, businessVerification: { status: 'submitted', businessPhone } };
      return { body: { success: true, message: authMessages.businessSubmitted } };
    },
  });
  const app = renderApp('/congratulations/business-details', { token: 'tok' });
  await screen.findByRole('heading', { name: 'Tell us about your business' });
  await app.user.type(screen.getByLabelText('Business name'), 'Bella Salon');
  const phone = screen.getByLabelText('Business phone');
  const submit = () => app.user.click(screen.getByRole('button', { name: 'Submit' }));
  return { app, api, phone, submit };
}

describe('the business phone field', () => {
  it('drops the country code of a pasted "+1 (555) 123-4567" and sends its 10 digits', async () => {
    const { app, api, phone, submit } = await openBusinessDetails();
    await app.user.click(phone);
    await app.user.paste('+1 (555) 123-4567');
    expect(phone).toHaveValue('(555) 123-4567');
    await submit();
    await waitFor(() => expect(api.callsTo('POST /auth/business-verification')).toHaveLength(1));
    expect(api.callsTo('POST /auth/business-verification')[0]?.body).toMatchObject({
      businessPhone: '5551234567',
    });
  });

  it('keeps a pasted foreign number as written and says it is not a 10-digit number', async () => {
    const { app, api, phone, submit } = await openBusinessDetails();
    await app.user.click(phone);
    await app.user.paste('+44 20 7946 0958');
    expect(phone).toHaveValue('+44 20 7946 0958');
    await submit();
    expect(await screen.findByText(validationMessages.businessPhoneInvalid)).toBeInTheDocument();
    expect(api.callsTo('POST /auth/business-verification')).toHaveLength(0);
  });

  it('a paste replaces a half-typed number instead of running on from it', async () => {
    const { app, phone } = await openBusinessDetails();
    await app.user.type(phone, '212');
    await app.user.paste('1-555-123-4567');
    expect(phone).toHaveValue('(555) 123-4567');
  });

  it('typed: "+1 555…" loses the 1, "+44…" is kept as typed, plain digits stop at 10', async () => {
    const { app, phone } = await openBusinessDetails();
    await app.user.type(phone, '+1 555 123 4567');
    expect(phone).toHaveValue('(555) 123-4567');
    await app.user.clear(phone);
    await app.user.type(phone, '+44 20 7946 0958');
    expect(phone).toHaveValue('+44 20 7946 0958');
    await app.user.clear(phone);
    await app.user.type(phone, '555123456789');
    expect(phone).toHaveValue('(555) 123-4567');
  });
});
