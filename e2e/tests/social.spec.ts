import { expect, type Page, test } from '@playwright/test';
import { snap } from '../support/app.ts';
import { type GoogleAccount, GSI_CLIENT_URL, serveFakeGoogle } from '../support/google.ts';

/**
 * Issue 7 in Chromium: the server runs with GOOGLE_CLIENT_ID and checks ID tokens against the local
 * identity server's keys; Facebook and Apple are not configured. The page gets Google Identity
 * Services from a stand-in (support/google.ts) whose button hands over a token that server signed.
 */

const sdkScripts = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLScriptElement>('script[src^="https:"]'), (s) => s.src),
  );

let counter = 0;
function newGoogleAccount(): GoogleAccount {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}`;
  return {
    sub: `google-${id}`,
    email: `gina.${id}@gmail.e2e.test`,
    given_name: 'Gina',
    family_name: 'Marino',
  };
}

/** The button Google's (stand-in) script drew, which replaces ours once the script is ready. */
const googleButton = (page: Page) => page.locator('[data-fake-gis]');

test.describe('social sign-in', () => {
  let account = newGoogleAccount();

  test.beforeEach(async ({ page }) => {
    account = newGoogleAccount();
    await serveFakeGoogle(page, () => account);
  });

  test('Facebook and Apple, left unconfigured, are not offered, and only the Google SDK is requested', async ({
    page,
  }) => {
    const sdkRequests: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith('http://localhost')) sdkRequests.push(request.url());
    });
    await page.goto('/login');
    await expect(googleButton(page)).toBeVisible();
    await expect(page.getByText('or', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Continue with Apple' })).toHaveCount(0);
    await snap(page, 'social-login');

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue with Facebook' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Continue with Apple' })).toHaveCount(0);

    expect(sdkRequests).toEqual([GSI_CLIENT_URL]);
    expect(await sdkScripts(page)).toEqual([GSI_CLIENT_URL]);
  });

  test('on sign-up, Google waits for the terms box', async ({ page }) => {
    await page.goto('/register');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(
      page.getByText('You must accept the Terms of Service before continuing with Google'),
    ).toBeVisible();
    await expect(googleButton(page)).toBeHidden();
    await page.getByLabel('I accept the Terms of Service').check();
    await expect(page.getByText(/before continuing with Google/)).toBeHidden();
    await expect(googleButton(page)).toBeVisible();
    await snap(page, 'social-register-terms-accepted');
  });

  test('a new owner signs up with Google, onboards without a password, and signs in again', async ({
    page,
  }) => {
    await page.goto('/login');
    const sent = page.waitForRequest('**/api/v1/auth/external');
    await googleButton(page).click();
    const body = (await sent).postDataJSON();
    expect(body).toMatchObject({
      firstName: 'Gina',
      lastName: 'Marino',
      email: account.email,
      provider: 'google',
      providerId: account.sub,
    });
    expect(body.idToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);

    // A new account: straight into onboarding, already verified by Google.
    await expect(page).toHaveURL(/\/congratulations$/);
    await expect(page.getByRole('heading', { name: 'Congratulations, Gina!' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
    expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('socialUserData') ?? 'null'))).toEqual(
      {
        firstName: 'Gina',
        lastName: 'Marino',
        email: account.email,
        provider: 'google',
        providerId: account.sub,
      },
    );
    await snap(page, 'social-congratulations');

    await page.getByRole('link', { name: 'Next' }).click();
    await page.getByLabel('Business name').fill('Gina Barbers');
    await page.getByLabel('Business phone').pressSequentially('2125550143');
    await page.getByRole('button', { name: 'Submit' }).click();
    const modal = page.getByRole('dialog', { name: "You're all set!" });
    await modal.getByRole('button', { name: 'Go to my account' }).click();

    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(account.email);
    await expect(page.getByRole('heading', { name: 'Change Password' })).toHaveCount(0);
    await expect(page.getByLabel('Current password')).toHaveCount(0);
    expect(await page.evaluate(() => sessionStorage.getItem('socialUserData'))).toBeNull();
    await snap(page, 'social-account');

    // Out, and back in with the same Google account: an existing owner goes straight to the account.
    await page.getByRole('button', { name: 'Account', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await googleButton(page).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('socialUserData'))).toBeNull();
  });

  test('a Google token for another app is refused with the server reason', async ({ page }) => {
    // Signed by the key the server trusts, but for another app's client id.
    account = { ...account, aud: 'someone-else.apps.googleusercontent.com' };
    await page.goto('/login');
    await googleButton(page).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: /Google sign-in could not be verified/ }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  });
});

test.describe('finishing an Apple sign-up on /post-login-onboarding', () => {
  test.beforeEach(async ({ page }) => {
    await serveFakeGoogle(page, newGoogleAccount);
  });

  const appleData = {
    firstName: 'Bella',
    lastName: 'Rossi',
    email: 'bella.rossi@privaterelay.appleid.com',
    provider: 'apple',
    providerId: '001234.abcdef',
    idToken: 'header.payload.signature',
    nonce: 'nonce-e2e',
  };

  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`asks for the phone number and shows the server's answer (${viewport.name})`, async ({ page }) => {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await page.goto('/login');
      if (viewport.name === 'phone') {
        await expect(googleButton(page)).toBeVisible();
        await snap(page, 'social-login-phone');
      }
      await page.evaluate(
        (data) => sessionStorage.setItem('socialUserData', JSON.stringify(data)),
        appleData,
      );
      await page.goto('/post-login-onboarding');
      await expect(page.getByRole('heading', { name: 'Finish signing up with Apple' })).toBeVisible();
      await expect(page.getByText(appleData.email)).toBeVisible();
      const phone = page.getByLabel('Phone number');
      await expect(phone).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByText('Phone number is required', { exact: true })).toBeVisible();
      await phone.pressSequentially('2125550143');
      await expect(phone).toHaveValue('(212) 555-0143');
      await snap(page, `social-post-login-onboarding-${viewport.name}`);

      // Apple is not configured on this server, so the repeat call is refused; the reason shows inline.
      await page.getByRole('button', { name: 'Create my account' }).click();
      await expect(page.getByRole('alert')).toContainText('Apple sign-in is not configured on this server.');
      await expect(page).toHaveURL(/\/post-login-onboarding$/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await snap(page, `social-post-login-onboarding-error-${viewport.name}`);
    });
  }
});
