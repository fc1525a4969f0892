import { expect, test } from '@playwright/test';
import { newOwner, onboardedOwner, signIn, snap } from '../support/app.ts';

// `/` is not among them: a visitor sees the product page there (issue 27, first-visit.spec.ts); a signed-in
// owner is still sent on through these guards (below).
const guarded = ['/account', '/toast-demo', '/admin', '/congratulations', '/verify-account'];

test.describe('guards, in the order of SPEC §2', () => {
  test('a visitor is sent to /login from every guarded page', async ({ page }) => {
    for (const path of guarded) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(/\/login$/);
    }
  });

  test('an unverified owner can only verify', async ({ page, request }) => {
    const owner = await onboardedOwner(request, newOwner('unverified'), 'registered');
    await signIn(page, owner.token);
    for (const path of [
      '/',
      '/account',
      '/toast-demo',
      '/congratulations',
      '/congratulations/business-details',
    ]) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(/\/verify-account$/);
    }
  });

  test('a verified owner without business details can only onboard', async ({ page, request }) => {
    const owner = await onboardedOwner(request, newOwner('verified'), 'verified');
    await signIn(page, owner.token);
    for (const path of ['/', '/account', '/toast-demo']) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(/\/congratulations$/);
    }
  });

  test('an onboarded owner is sent away from the visitor pages, and a non-admin away from /admin', async ({
    page,
    request,
  }) => {
    const owner = await onboardedOwner(request);
    await signIn(page, owner.token);
    for (const path of ['/login', '/register', '/forgot-password']) {
      await page.goto(path);
      await expect(page, `visiting ${path}`).toHaveURL(/\/account$/);
    }
    await page.goto('/reset-password/some-token');
    await expect(page).toHaveURL(/\/account$/);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/account$/);
  });

  test('a revoked token logs the owner out (401 handling)', async ({ page, request }) => {
    const owner = await onboardedOwner(request);
    await signIn(page, owner.token);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    await request.post('/api/v1/auth/logout', { headers: { authorization: `Bearer ${owner.token}` } });
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});

test('the account tab lives in the address and only accepts information, plan or billing', async ({
  page,
  request,
}) => {
  const owner = await onboardedOwner(request);
  await signIn(page, owner.token);
  await page.goto('/account?tab=billing');
  await snap(page, 'account-billing-tab');
  await page.getByRole('button', { name: 'Update My Information' }).click();
  await expect(page).toHaveURL(/\/account\?tab=information$/);
  await expect(page.getByLabel('First name')).toBeVisible();
  await page.goto('/account?tab=nonsense');
  await expect(page.getByLabel('First name')).toBeVisible();
});

test('an admin sees the Admin link in the Account menu', async ({ page, request }) => {
  const admin = await onboardedOwner(request, { ...newOwner(), email: 'admin@e2e.test' });
  await signIn(page, admin.token);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin$/);
});

test('the reset page without a token shows the Invalid Reset Link view', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
  await page.getByRole('link', { name: 'Request a new reset link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('an unknown address shows the 404 page', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await snap(page, 'not-found');
});

test('the toast demo shows each type, stacked, and a toast closes on ×', async ({ page, request }) => {
  const owner = await onboardedOwner(request);
  await signIn(page, owner.token);
  await page.goto('/toast-demo');
  for (const kind of ['success', 'error', 'warning', 'info']) {
    await page.getByRole('button', { name: `Show ${kind} toast` }).click();
  }
  const toasts = page.locator('.toast');
  await expect(toasts).toHaveCount(4);
  const tops = await toasts.evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().top));
  const gaps = tops.slice(1).map((top, index) => Math.abs(top - tops[index]!));
  expect(gaps.every((gap) => gap === 80)).toBe(true);
  await snap(page, 'toast-demo');
  await toasts.first().getByRole('button', { name: /close/i }).click();
  await expect(toasts).toHaveCount(3);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the screens fit, and the hamburger menu opens with My Account and Logout', async ({
    page,
    request,
  }) => {
    await page.goto('/login');
    await snap(page, 'mobile-login');
    await page.goto('/register');
    await snap(page, 'mobile-register');

    const owner = await onboardedOwner(request);
    await signIn(page, owner.token);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await snap(page, 'mobile-account');

    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(menu.getByRole('link', { name: 'My Account' })).toBeVisible();
    await snap(page, 'mobile-menu');
    await menu.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
