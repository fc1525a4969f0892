import { screen, within } from '@testing-library/react';
import type { User } from '@waitlist/contract';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { timeZoneCity } from '../../../lib/time-zones.ts';
import { errorAnswer, newVerifiedUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

/** A server whose /auth/me reflects the business details once they are submitted. */
function businessServer(handlers: Parameters<typeof mockSignedIn>[1] = {}) {
  let user: User = newVerifiedUser();
  const api = mockSignedIn(() => user, {
    ...handlers,
    'POST /auth/business-verification': ({ body }) => {
      const { businessName, businessPhone } = body as { businessName: string; businessPhone: string };
      user = {
        ...user,
        businessName,
        businessPhone,
        businessVerification: { status: 'submitted', businessPhone },
      };
      return { body: { success: true, message: authMessages.businessSubmitted } };
    },
  });
  return api;
}

async function openBusinessDetails() {
  const app = renderApp('/congratulations/business-details', { token: 'tok' });
  await screen.findByRole('heading', { name: 'Tell us about your business' });
  return {
    app,
    nameField: screen.getByLabelText('Business name'),
    phoneField: screen.getByLabelText('Business phone'),
    submit: () => app.user.click(screen.getByRole('button', { name: 'Submit' })),
  };
}

describe('congratulations page', () => {
  it('welcomes the user and leads on to the business details', async () => {
    mockSignedIn(newVerifiedUser());
    const app = renderApp('/congratulations', { token: 'tok' });
    expect(await screen.findByRole('heading', { name: 'Congratulations, Bella!' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('link', { name: 'Next' }));
    expect(app.location()).toBe('/congratulations/business-details');
  });
});

describe('business details page', () => {
  it('shows a typed phone as (555) 123-4567 and sends it as its 10 digits', async () => {
    const api = businessServer();
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    expect(phoneField).toHaveValue('(555) 123-4567');

    await submit();
    await screen.findByRole('dialog', { name: "You're all set!" });
    expect(api.callsTo('POST /auth/business-verification')[0]!.body).toEqual({
      businessName: 'Bella Salon',
      businessPhone: '5551234567',
    });
  });

  it('formats as the user types, ignores letters and stops at 10 digits', async () => {
    businessServer();
    const { app, phoneField } = await openBusinessDetails();
    await app.user.type(phoneField, '555');
    expect(phoneField).toHaveValue('(555');
    await app.user.type(phoneField, 'x12');
    expect(phoneField).toHaveValue('(555) 12');
    await app.user.type(phoneField, '3456789');
    expect(phoneField).toHaveValue('(555) 123-4567');
  });

  it('wants a business name and phone', async () => {
    const api = businessServer();
    const { submit } = await openBusinessDetails();
    await submit();
    expect(await screen.findByText('Business name is required')).toBeInTheDocument();
    expect(screen.getByText('Business phone is required')).toBeInTheDocument();
    expect(api.callsTo('POST /auth/business-verification')).toHaveLength(0);
  });

  it('wants all 10 digits of the phone', async () => {
    const api = businessServer();
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '555123456');
    await submit();
    expect(await screen.findByText('Please enter a valid 10-digit phone number')).toBeInTheDocument();
    expect(phoneField).toHaveAccessibleDescription('Please enter a valid 10-digit phone number');
    expect(api.callsTo('POST /auth/business-verification')).toHaveLength(0);
  });

  it('confirms in a modal whose button leads to /account', async () => {
    businessServer();
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    const dialog = await screen.findByRole('dialog', { name: "You're all set!" });
    expect(within(dialog).getByText(authMessages.businessSubmitted)).toBeInTheDocument();
    expect(app.location()).toBe('/congratulations/business-details');

    await app.user.click(within(dialog).getByRole('button', { name: 'Go to my account' }));
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
    expect(app.location()).toBe('/account');
  });

  it('forgets the social sign-up data once onboarding is done (SPEC §3: held temporarily)', async () => {
    const socialUserData = {
      firstName: 'Bella',
      lastName: 'Rossi',
      email: 'bella@gmail.com',
      provider: 'google',
      providerId: 'google-sub-1',
    };
    sessionStorage.setItem('socialUserData', JSON.stringify(socialUserData));
    businessServer();
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    expect(JSON.parse(sessionStorage.getItem('socialUserData')!)).toEqual(socialUserData);
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    await screen.findByRole('dialog', { name: "You're all set!" });
    expect(sessionStorage.getItem('socialUserData')).toBeNull();
  });

  it('also goes to /account when the modal is closed', async () => {
    businessServer();
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    await screen.findByRole('dialog', { name: "You're all set!" });
    await app.user.keyboard('{Escape}');
    expect(await screen.findByRole('heading', { name: 'My Account' })).toBeInTheDocument();
  });

  it('says when the details could not be submitted', async () => {
    mockSignedIn(newVerifiedUser(), { 'POST /auth/business-verification': errorAnswer(500) });
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to submit business details');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(app.location()).toBe('/congratulations/business-details');
  });
});

describe('business time zone at onboarding', () => {
  const timeZoneSaved = {
    'PUT /settings/time-zone': {
      body: { success: true, data: { timeZone: 'America/Chicago' }, message: 'Time zone saved' },
    },
  };

  it('is asked, guessed from the browser, and saved with the business details', async () => {
    const guess = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const api = businessServer(timeZoneSaved);
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    // A searchable list of cities (issue 39): the guess shows as its city; typing one and Enter picks it.
    const zone = screen.getByRole('combobox', { name: 'Time zone' });
    expect(zone).toHaveValue(timeZoneCity(guess));
    await app.user.click(zone);
    expect(screen.getByRole('option', { name: /^Los Angeles/ })).toBeInTheDocument();
    await app.user.clear(zone);
    await app.user.type(zone, 'chicago{Enter}');
    expect(zone).toHaveValue('Chicago');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    await screen.findByRole('dialog', { name: "You're all set!" });
    expect(api.callsTo('PUT /settings/time-zone').map((call) => call.body)).toEqual([
      { timeZone: 'America/Chicago' },
    ]);
    expect(screen.queryByText(/time zone could not be saved/)).not.toBeInTheDocument();
  });

  it('still finishes onboarding when the zone cannot be saved, and says where to set it', async () => {
    businessServer({ 'PUT /settings/time-zone': errorAnswer(500) });
    const { app, nameField, phoneField, submit } = await openBusinessDetails();
    await app.user.type(nameField, 'Bella Salon');
    await app.user.type(phoneField, '5551234567');
    await submit();
    const dialog = await screen.findByRole('dialog', { name: "You're all set!" });
    expect(
      within(dialog).getByText('Your time zone could not be saved. You can set it in Settings.'),
    ).toBeInTheDocument();
  });
});
