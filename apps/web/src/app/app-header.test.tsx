import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, newVerifiedUser, unverifiedUser } from '../test/fixtures.ts';
import { mockApi, mockSignedIn } from '../test/mock-api.ts';
import { renderApp } from '../test/render-app.tsx';

async function openWithHeader(path = '/account', user = makeUser()) {
  const api = mockSignedIn(user);
  const app = renderApp(path, { token: 'tok' });
  const accountButton = await screen.findByRole('button', { name: 'Account' });
  return { app, api, accountButton };
}

describe('header', () => {
  it('is shown only to logged-in users', async () => {
    mockApi();
    renderApp('/login');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(screen.queryByRole('link', { name: 'Waitlist & Text home' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Account' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Open menu' })).not.toBeInTheDocument();
  });

  it('opens the Account dropdown with Enter, focuses My Account, and closes on Escape', async () => {
    const { app, accountButton } = await openWithHeader();
    expect(accountButton).toHaveAttribute('aria-haspopup', 'menu');
    expect(accountButton).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    accountButton.focus();
    await app.user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Account' });
    expect(accountButton).toHaveAttribute('aria-expanded', 'true');
    expect(within(menu).getByText('bella@example.com')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'My Account' })).toHaveFocus();

    await app.user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(accountButton).toHaveAttribute('aria-expanded', 'false');
    expect(accountButton).toHaveFocus();
  });

  it('moves through the items with the arrow keys, wrapping round', async () => {
    const { app, accountButton } = await openWithHeader();
    accountButton.focus();
    await app.user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu');
    const item = (name: string) => within(menu).getByRole('menuitem', { name });
    expect(item('My Account')).toHaveFocus();
    await app.user.keyboard('{ArrowDown}');
    expect(item('Plan')).toHaveFocus();
    await app.user.keyboard('{End}');
    expect(item('Logout')).toHaveFocus();
    await app.user.keyboard('{ArrowDown}');
    expect(item('My Account')).toHaveFocus();
    await app.user.keyboard('{ArrowUp}');
    expect(item('Logout')).toHaveFocus();
    await app.user.keyboard('{ArrowUp}');
    expect(item('Settings')).toHaveFocus();
  });

  it('follows My Account with Enter and closes', async () => {
    const { app, accountButton } = await openWithHeader('/toast-demo');
    await app.user.click(accountButton);
    await app.user.keyboard('{Enter}');
    expect(app.location()).toBe('/account');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('closes when the user clicks elsewhere', async () => {
    const { app, accountButton } = await openWithHeader();
    await app.user.click(accountButton);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await app.user.click(screen.getByRole('heading', { name: 'My Account' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('has no Admin link for a non-admin', async () => {
    const { app, accountButton } = await openWithHeader();
    await app.user.click(accountButton);
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['My Account', 'Plan', 'Billing', 'Settings', 'Logout']);
  });

  it('leads to the Plan and Billing tabs by their addresses, and to Settings (issue 39)', async () => {
    const { app, accountButton } = await openWithHeader('/toast-demo');
    await app.user.click(accountButton);
    const menu = screen.getByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'Plan' })).toHaveAttribute('href', '/account?tab=plan');
    expect(within(menu).getByRole('menuitem', { name: 'Billing' })).toHaveAttribute(
      'href',
      '/account?tab=billing',
    );
    await app.user.click(within(menu).getByRole('menuitem', { name: 'Settings' }));
    expect(app.location()).toBe('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
  });

  it('has an Admin link for an admin, leading to /admin', async () => {
    const { app, accountButton } = await openWithHeader('/account', makeUser({ admin: true }));
    await app.user.click(accountButton);
    const admin = within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Admin' });
    await app.user.click(admin);
    expect(app.location()).toBe('/admin');
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin' })).toBeInTheDocument();
  });

  it('logs out: tells the server, forgets the token and shows /login', async () => {
    const { app, api, accountButton } = await openWithHeader();
    await app.user.click(accountButton);
    await app.user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(app.location()).toBe('/login');
    expect(api.callsTo('POST /auth/logout')[0]!.headers.authorization).toBe('Bearer tok');
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Account' })).not.toBeInTheDocument();
  });

  it('logs out locally even when the server cannot be reached', async () => {
    const { app, accountButton } = await openWithHeader();
    mockApi({ 'POST /auth/logout': 'network-error' });
    await app.user.click(accountButton);
    await app.user.click(within(screen.getByRole('menu')).getByRole('menuitem', { name: 'Logout' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});

describe('main links', () => {
  it('lead to the waitlist and openings, marking the current page', async () => {
    await openWithHeader();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Waitlist' })).toHaveAttribute('href', '/waitlist');
    expect(within(nav).getByRole('link', { name: 'Openings' })).toHaveAttribute('href', '/openings');
    expect(within(nav).getByRole('link', { name: 'Services' })).toHaveAttribute('href', '/services');
    expect(within(nav).getByRole('link', { name: 'Waitlist' })).not.toHaveAttribute('aria-current');
  });

  it('mark the page the owner is on', async () => {
    await openWithHeader('/openings');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Openings' })).toHaveAttribute('aria-current', 'page');
  });
});

describe('mobile menu', () => {
  it('toggles from the hamburger button', async () => {
    const { app } = await openWithHeader();
    const hamburger = screen.getByRole('button', { name: 'Open menu' });
    expect(hamburger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();

    await app.user.click(hamburger);
    expect(hamburger).toHaveAttribute('aria-expanded', 'true');
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: 'Waitlist' })).toHaveAttribute('href', '/waitlist');
    expect(within(menu).getByRole('link', { name: 'Openings' })).toHaveAttribute('href', '/openings');
    expect(within(menu).getByRole('link', { name: 'Services' })).toHaveAttribute('href', '/services');
    expect(within(menu).getByRole('link', { name: 'My Account' })).toHaveAttribute('href', '/account');
    expect(within(menu).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(within(menu).getByRole('button', { name: 'Logout' })).toBeInTheDocument();

    await app.user.click(hamburger);
    expect(hamburger).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('reaches every place an owner sets something: Settings, Plan and Billing (issue 39)', async () => {
    const { app } = await openWithHeader('/waitlist');
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    let menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(within(menu).getByRole('link', { name: 'Plan' })).toHaveAttribute('href', '/account?tab=plan');
    expect(within(menu).getByRole('link', { name: 'Billing' })).toHaveAttribute(
      'href',
      '/account?tab=billing',
    );

    await app.user.click(within(menu).getByRole('link', { name: 'Billing' }));
    expect(app.location()).toBe('/account?tab=billing');
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    menu = screen.getByRole('navigation', { name: 'Main menu' });
    // The tab shown is the one marked: Billing, not My Account, though both are /account.
    expect(within(menu).getByRole('link', { name: 'Billing' })).toHaveAttribute('aria-current', 'page');
    expect(within(menu).getByRole('link', { name: 'My Account' })).not.toHaveAttribute('aria-current');

    await app.user.click(within(menu).getByRole('link', { name: 'Settings' }));
    expect(app.location()).toBe('/settings');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('shows Admin to admins and closes after navigating', async () => {
    const { app } = await openWithHeader('/account', makeUser({ admin: true }));
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.click(
      within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Admin' }),
    );
    expect(app.location()).toBe('/admin');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
  });

  it('logs out', async () => {
    const { app } = await openWithHeader();
    await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
    await app.user.click(
      within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('button', { name: 'Logout' }),
    );
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it.each([
    ['unverified', '/verify-account', unverifiedUser()],
    ['verified but not onboarded', '/congratulations', newVerifiedUser()],
  ])(
    'shows no Waitlist or Openings links to a user who is %s (they would bounce back)',
    async (_, path, user) => {
      const { app } = await openWithHeader(path, user);
      const main = screen.getByRole('navigation', { name: 'Main' });
      expect(within(main).queryByRole('link', { name: 'Waitlist' })).not.toBeInTheDocument();
      expect(within(main).queryByRole('link', { name: 'Openings' })).not.toBeInTheDocument();
      await app.user.click(screen.getByRole('button', { name: 'Open menu' }));
      const mobile = screen.getByRole('navigation', { name: 'Main menu' });
      expect(within(mobile).queryByRole('link', { name: 'Waitlist' })).not.toBeInTheDocument();
      expect(within(mobile).queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
      expect(within(mobile).queryByRole('link', { name: 'Plan' })).not.toBeInTheDocument();
      expect(within(mobile).getByRole('link', { name: 'My Account' })).toBeInTheDocument();
      expect(within(mobile).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    },
  );

  it('shows Waitlist and Openings once onboarding is done', async () => {
    await openWithHeader('/account', makeUser());
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: 'Waitlist' })).toHaveAttribute('href', '/waitlist');
    expect(within(main).getByRole('link', { name: 'Openings' })).toHaveAttribute('href', '/openings');
  });

  it('shows the unread count on the menu button itself, read out with its name (issue 27)', async () => {
    const api = mockSignedIn(makeUser(), {
      'GET /inbox/unread': { body: { success: true, data: { unread: 3 } } },
    });
    const app = renderApp('/account', { token: 'tok' });
    const hamburger = await screen.findByRole('button', { name: 'Open menu, 3 unread' });
    expect(within(hamburger).getByTestId('menu-badge')).toHaveTextContent('3');
    expect(api.callsTo('GET /inbox/unread')).not.toHaveLength(0);
    await app.user.click(hamburger);
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: /^Inbox 3/ })).toHaveAttribute('href', '/inbox');
  });

  it('shows no count on the menu button when every reply is read', async () => {
    await openWithHeader();
    expect(screen.getByRole('button', { name: 'Open menu' })).toBeInTheDocument();
    expect(screen.queryByTestId('menu-badge')).not.toBeInTheDocument();
  });
});
