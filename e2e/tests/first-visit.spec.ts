import { expect, type Locator, test } from '@playwright/test';
import { PLAN_PRICES } from '../../packages/contract/src/billing.messages.ts';
import { onboardedOwner, signIn, snap } from '../support/app.ts';

/**
 * Issue 27: a visitor's first screen is the product, not "Welcome back". On a phone and on a desktop, the
 * first screen says what it does, what it costs and how to start, and nothing overflows sideways.
 */

/** True when the whole element is inside the first screen (no scrolling needed to see it). */
const inFirstScreen = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return (
      box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth
    );
  });

for (const viewport of [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
]) {
  test(`a visitor's / explains the product, its price and "Start free trial" in one screen (${viewport.name})`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto('/');
    await expect(page).toHaveURL(/\/$/);
    const title = page.getByRole('heading', { level: 1, name: 'Fill cancelled appointments with one text' });
    await expect(title).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toHaveCount(0);

    const what = page.getByText(/the first to reply YES gets the slot/);
    const price = page.getByText(/Then from \$\d+\/month/);
    const start = page.getByRole('link', { name: 'Start free trial' }).first();
    const logIn = page.getByRole('link', { name: 'Log in' }).first();
    for (const element of [title, what, price, start, logIn]) {
      expect(await inFirstScreen(element)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    // Drawn as the product's primary button (its styles arrive with this page, not with another's).
    await expect(start).toHaveCSS('background-color', 'rgb(67, 56, 202)');
    await snap(page, `first-visit-${viewport.name}`);

    // The plans below, at the prices the server charges.
    const pricing = page.getByRole('region', { name: 'Simple pricing' });
    await expect(pricing.getByRole('listitem', { name: 'Starter' })).toContainText(
      `$${PLAN_PRICES.STARTER.monthly.amount / 100}`,
    );
    await expect(pricing.getByRole('listitem', { name: 'Growth' })).toContainText(
      `$${PLAN_PRICES.GROWTH.monthly.amount / 100}`,
    );

    await start.click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

    await page.goto('/');
    await logIn.click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  });
}

test('a signed-in owner going to / still lands on /account', async ({ page, request }) => {
  const owner = await onboardedOwner(request);
  await signIn(page, owner.token);
  await page.goto('/');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
});
