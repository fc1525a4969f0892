import { screen, waitFor, within } from '@testing-library/react';
import { authMessages } from '@waitlist/contract';
import { describe, expect, it } from 'vitest';
import { errorAnswer, makeUser } from '../../../test/fixtures.ts';
import { expectToast, openAccount, toastTexts } from './account-page.test-helpers.tsx';

describe('account page tabs', () => {
  it.each([
    ['/account', 'Your information'],
    ['/account?tab=information', 'Your information'],
    ['/account?tab=plan', 'Current Plan'],
    ['/account?tab=billing', 'Payment Methods'],
    ['/account?tab=settings', 'Your information'],
    ['/account?tab=PLAN', 'Your information'],
    ['/account?tab=', 'Your information'],
  ])('%s shows %s', async (path, heading) => {
    await openAccount(path);
    expect(screen.getByRole('heading', { level: 2, name: heading })).toBeInTheDocument();
    const others = ['Your information', 'Current Plan', 'Payment Methods'].filter((name) => name !== heading);
    for (const other of others) {
      expect(screen.queryByRole('heading', { level: 2, name: other })).not.toBeInTheDocument();
    }
  });

  it('shows only the Update My Information button in the tab bar', async () => {
    await openAccount('/account?tab=plan');
    const tabs = screen.getByRole('navigation', { name: 'Account sections' });
    expect(
      within(tabs)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Update My Information']);
  });

  it('puts the tab in the address when it changes, as a step the browser can go back to', async () => {
    const { app } = await openAccount('/account?tab=billing');
    expect(await screen.findByRole('heading', { level: 2, name: 'Payment Methods' })).toBeInTheDocument();
    await app.user.click(screen.getByRole('button', { name: 'Update My Information' }));
    expect(app.location()).toBe('/account?tab=information');
    expect(screen.getByRole('heading', { level: 2, name: 'Your information' })).toBeInTheDocument();

    await app.router.navigate(-1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Payment Methods' })).toBeInTheDocument();
    expect(app.location()).toBe('/account?tab=billing');
    await app.router.navigate(1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Your information' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('link', { name: 'View plan' }));
    expect(app.location()).toBe('/account?tab=plan');
    expect(screen.getByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();

    await app.user.click(screen.getByRole('button', { name: 'Update My Information' }));
    expect(app.location()).toBe('/account?tab=information');

    await app.router.navigate(-1);
    expect(await screen.findByRole('heading', { level: 2, name: 'Current Plan' })).toBeInTheDocument();
    expect(app.location()).toBe('/account?tab=plan');
  });

  it('marks the information tab as current only on the information tab', async () => {
    const { app } = await openAccount('/account?tab=plan');
    const tab = screen.getByRole('button', { name: 'Update My Information' });
    expect(tab).not.toHaveAttribute('aria-current');
    await app.user.click(tab);
    expect(tab).toHaveAttribute('aria-current', 'page');
  });
});

describe('a 401 from any call', () => {
  it.each([
    ['PUT /auth/updatedetails', 'Save Information'],
    ['DELETE /auth/account', 'Delete Account'],
  ])('on %s ends the session and shows /login', async (call, button) => {
    const { app } = await openAccount(button === 'Save Information' ? '/account' : '/account?tab=plan', {
      [call]: errorAnswer(401, authMessages.sessionExpired),
    });
    if (button === 'Save Information') {
      await app.user.type(screen.getByLabelText('First name'), 'x');
    } else {
      await app.user.click(screen.getByRole('button', { name: 'Delete My Account' }));
      await app.user.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    }
    await app.user.click(screen.getByRole('button', { name: button }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('the weekly summary switch (issue 14)', () => {
  it('is on by default and turns the Monday email off, saying so', async () => {
    let user = makeUser();
    const { app, api } = await openAccount(
      '/account',
      {
        'PUT /dashboard/weekly-summary': ({ body }) => {
          user = { ...user, weeklySummaryEnabled: (body as { enabled: boolean }).enabled };
          return { body: { success: true, data: user, message: 'The weekly summary email is off.' } };
        },
      },
      () => user,
    );
    // The page reads the profile afresh when it opens; the switch is used once that answer is in.
    await waitFor(() => expect(api.callsTo('GET /auth/me').length).toBeGreaterThanOrEqual(2));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const box = screen.getByRole('checkbox', { name: 'Send me the Monday summary' });
    expect(box).toBeChecked();
    await app.user.click(box);
    await expectToast('The weekly summary email is off.');
    expect(api.callsTo('PUT /dashboard/weekly-summary')[0]!.body).toEqual({ enabled: false });
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Send me the Monday summary' })).not.toBeChecked(),
    );
  });

  it('stays as it was and says why when saving fails', async () => {
    const { app } = await openAccount('/account', {
      'PUT /dashboard/weekly-summary': errorAnswer(500, 'Something went wrong'),
    });
    await app.user.click(screen.getByRole('checkbox', { name: 'Send me the Monday summary' }));
    await waitFor(() => expect(toastTexts().join(' ')).toMatch(/weekly summary|went wrong/i));
    expect(screen.getByRole('checkbox', { name: 'Send me the Monday summary' })).toBeChecked();
  });
});
