import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { startFakePushService } from '../../apps/server/src/test/fake-push-service.ts';
import { closeTab, journeyZone, newOwner, snap, verificationCode } from '../support/app.ts';

/**
 * Issue 14's "Done when", as one journey on a phone (390×844): a new owner signs up, verifies, gives the
 * business details, follows the guided start (text number → a customer → the first slot, with a price),
 * has push on with no app-store install, and when the customer replies YES on the local phone the owner's
 * phone gets "Priya took your 3:30 pm slot" (through the local push service, which checks the VAPID JWT and
 * decrypts the payload) and the dashboard shows the slot's price as revenue recovered.
 */
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  timezoneId: journeyZone,
});

const checklist = (page: Page) => page.getByTestId('get-started-checklist');

async function backToAccount(page: Page) {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
}

type Owner = ReturnType<typeof newOwner>;
type PushService = Awaited<ReturnType<typeof startFakePushService>>;

/** Sign up and verify with the code from the local mailbox. */
async function signUpAndVerify(page: Page, request: APIRequestContext, owner: Owner) {
  await page.goto('/register');
  await page.getByLabel('First name').fill(owner.firstName);
  await page.getByLabel('Last name').fill(owner.lastName);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByLabel('Confirm password').fill(owner.password);
  await page.getByLabel('I accept the Terms of Service').check();
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/verify-account$/);
  await page.getByLabel('Verification code').fill(await verificationCode(request, owner.email));
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Onboarding: the business, its time zone guessed from the phone. */
async function giveBusinessDetails(page: Page) {
  await expect(page).toHaveURL(/\/congratulations$/, { timeout: 5_000 });
  await page.getByRole('link', { name: 'Next' }).click();
  // The zone shows as its city (issue 39): "America/Los_Angeles" → "Los Angeles".
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(
    journeyZone.split('/').at(-1)?.replaceAll('_', ' ') ?? '',
  );
  await page.getByLabel('Business name').fill('Bella Salon');
  await page.getByLabel('Business phone').pressSequentially('5551234567');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Go to my account' }).click();
}

/** 1. The text number (a local test number verifies at once). */
async function getTextNumber(page: Page) {
  await checklist(page).getByRole('link', { name: 'Get your text number' }).click();
  // Straight to the text-number card (issue 27).
  await expect(page).toHaveURL(/\/account\?tab=billing#text-number$/);
  await page.getByRole('button', { name: 'Request a number' }).click();
  await expect(page.getByTestId('phone-number-section').getByText('Verified', { exact: true })).toBeVisible();
  await backToAccount(page);
  await expect(checklist(page).getByText('1 of 3 done')).toBeVisible();
}

/** 2. A customer. */
async function addFirstCustomer(page: Page) {
  await checklist(page).getByRole('link', { name: 'Add customers' }).click();
  await expect(page).toHaveURL(/\/waitlist$/);
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Priya Shah');
  await dialog.getByLabel('Mobile phone').fill('212-555-0188');
  await dialog.getByLabel('How did they agree to texts?').selectOption('verbal');
  await dialog.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(dialog).toHaveCount(0);
  await backToAccount(page);
  await expect(checklist(page).getByText('2 of 3 done')).toBeVisible();
}

/**
 * The owner's phone: push on, no app store. Headless Chromium has no push service of its own, so the
 * subscription the browser would post names the local push service (see pwa-push.spec.ts).
 */
async function turnPushOn(page: Page, request: APIRequestContext, push: PushService) {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const device = push.subscribe();
  const on = await request.post('/api/v1/push/subscriptions', {
    headers: { authorization: `Bearer ${token}` },
    data: { endpoint: device.endpoint, keys: device.keys, platform: 'android' },
  });
  expect(on.ok(), await on.text()).toBe(true);
  await page.reload();
  await expect(page.getByLabel('Push notifications on this device')).toBeChecked();
}

/** 3. The first slot, with its price, in the business's time zone; returns the opening's address. */
async function openFirstSlot(page: Page) {
  await checklist(page).getByRole('link', { name: 'Open your first slot' }).click();
  await expect(page).toHaveURL(/\/openings$/);
  const form = page.getByRole('form', { name: 'Open a slot' });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('15:30');
  await form.getByLabel('Service').fill('Color');
  await form.getByLabel(/Price/).fill('85.50');
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  await page.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page).toHaveURL(/\/openings\/[\w-]+$/);
  return page.url();
}

/** Priya answers YES on her phone (the local phone simulator, the same inbound path as a real reply). */
async function replyYesFromPhone(page: Page) {
  const phone = await page.context().newPage();
  await phone.goto('/dev/phone');
  const thread = phone.getByRole('link', { name: /212.*555.*0188|\+12125550188/ }).first();
  await expect
    .poll(async () => {
      await phone.reload();
      return thread.count();
    })
    .toBeGreaterThan(0);
  await thread.click();
  await expect(phone.getByText(/Reply YES to claim it/).first()).toBeVisible();
  await phone.getByLabel('Reply').fill('YES');
  await phone.getByRole('button', { name: 'Send' }).click();
  await closeTab(phone);
}

/** The dashboard, from the header menu, shows the slot's price as revenue recovered. */
async function checkDashboard(page: Page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.locator('.dashboard__tile', { hasText: 'Revenue recovered' })).toContainText('$85.50');
  await expect(page.locator('.dashboard__tile', { hasText: 'Openings filled' })).toContainText('1 / 1');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'journey-dashboard-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, 'journey-dashboard-1280');
}

test('sign-up → the guided start → a filled slot → its price on the dashboard → a push to the phone', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const push = await startFakePushService(3912);
  try {
    await signUpAndVerify(page, request, newOwner('journey'));
    await giveBusinessDetails(page);

    // The guided start.
    await expect(page).toHaveURL(/\/account$/);
    await expect(checklist(page).getByText('0 of 3 done')).toBeVisible();
    await snap(page, 'journey-checklist-390');
    await getTextNumber(page);
    await addFirstCustomer(page);
    await turnPushOn(page, request, push);
    const openingUrl = await openFirstSlot(page);
    await replyYesFromPhone(page);

    // The owner's phone is told, through the local push service (VAPID checked, payload decrypted).
    await expect.poll(() => push.received.length, { timeout: 15_000 }).toBe(1);
    expect(push.rejected).toEqual([]);
    expect(push.received[0]!.payload).toMatchObject({
      title: 'Priya took your 3:30 pm slot',
      url: '/openings',
    });

    // The slot is filled, and the guided start is done.
    await page.goto(openingUrl);
    await expect(page.getByTestId('opening-winner')).toContainText('Priya Shah', { timeout: 15_000 });
    await backToAccount(page);
    await expect(checklist(page)).toHaveCount(0);

    await checkDashboard(page);
    await backToAccount(page);
    await expect(page.getByLabel('Send me the Monday summary')).toBeChecked();
    await snap(page, 'journey-account-1280');
  } finally {
    await push.close();
  }
});
