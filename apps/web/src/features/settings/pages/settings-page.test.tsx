import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, newVerifiedUser } from '../../../test/fixtures.ts';
import { mockSignedIn } from '../../../test/mock-api.ts';
import { renderApp } from '../../../test/render-app.tsx';

const groups = [
  ['Business & time zone', '/settings/business'],
  ['Text number', '/settings/text-number'],
  ['Offer rules', '/settings/offer-rules'],
  ['Calendar', '/settings/calendar'],
] as const;

async function openSettings(path = '/settings') {
  mockSignedIn(makeUser());
  const app = renderApp(path, { token: 'tok' });
  await screen.findByRole('heading', { level: 1, name: 'Settings' });
  return app;
}

describe('the Settings area (issue 39)', () => {
  it('lists the four groups, each with a line of what it holds, and names the tab', async () => {
    await openSettings();
    const list = screen.getByRole('list', { name: 'Settings groups' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(groups.map(([, to]) => to));
    expect(within(list).getByRole('link', { name: 'Offer rules' })).toHaveAccessibleDescription(
      'The hours offers may be texted, and how many a customer gets a day.',
    );
    expect(document.title).toBe('Settings · Waitlist & Text');
    // What SPEC §2 keeps on the account page is linked by its tab address.
    expect(screen.getByRole('link', { name: 'Plan' })).toHaveAttribute('href', '/account?tab=plan');
    expect(screen.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/account?tab=billing');
  });

  it.each(groups)('leads to %s, a page of its own with the way back', async (name, to) => {
    const app = await openSettings();
    await app.user.click(
      within(screen.getByRole('list', { name: 'Settings groups' })).getByRole('link', { name }),
    );
    expect(app.location()).toBe(to);
    expect(await screen.findByRole('heading', { level: 1, name })).toBeInTheDocument();
    expect(document.title).toBe(`${name} · Settings · Waitlist & Text`);
    await app.user.click(screen.getByRole('link', { name: '← Settings' }));
    expect(app.location()).toBe('/settings');
  });

  it.each(groups)('opens %s by its own address', async (name, to) => {
    mockSignedIn(makeUser());
    renderApp(to, { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name })).toBeInTheDocument();
    const side = screen.getByRole('navigation', { name: 'Settings' });
    expect(within(side).getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
  });

  it('is for owners who finished onboarding, like the other owner pages', async () => {
    mockSignedIn(newVerifiedUser());
    const app = renderApp('/settings/offer-rules', { token: 'tok' });
    await screen.findByRole('link', { name: 'Next' });
    expect(app.location()).toBe('/congratulations');
  });
});

describe('the old Calendar tab address', () => {
  it('lands on Settings’ Calendar page', async () => {
    mockSignedIn(makeUser());
    const app = renderApp('/account?tab=calendar', { token: 'tok' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Calendar' })).toBeInTheDocument();
    expect(app.location()).toBe('/settings/calendar');
  });
});
