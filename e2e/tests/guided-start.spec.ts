import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { journeyZone, newOwner, onboardedOwner, signIn, snap, verificationCode } from '../support/app.ts';

/** Whether two boxes on screen share any pixel. */
async function overlaps(a: Locator, b: Locator) {
  const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
  if (!boxA || !boxB) return false;
  return !(
    boxA.x + boxA.width <= boxB.x ||
    boxB.x + boxB.width <= boxA.x ||
    boxA.y + boxA.height <= boxB.y ||
    boxB.y + boxB.height <= boxA.y
  );
}

/** The run's zone as the app names it: its city ("America/Los_Angeles" → "Los Angeles"). */
const journeyCity = journeyZone.split('/').at(-1)?.replaceAll('_', ' ') ?? '';

const checklist = (page: Page) => page.getByTestId('get-started-checklist');

async function backToAccount(page: Page) {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'My Account', level: 1 })).toBeVisible();
}

/** Verification on a phone: a wrong code first, then the right one. */
async function verifyWithAWrongCodeFirst(page: Page, request: APIRequestContext, email: string) {
  // A wrong code: its toast rises from the bottom, clear of the title.
  await page.getByLabel('Verification code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  const toasts = page.getByTestId('toast');
  await expect(toasts.first()).toBeVisible();
  expect(await overlaps(toasts.first(), page.getByRole('heading', { level: 1 }))).toBe(false);

  // The right code: the success replaces the old error instead of sitting next to it.
  await page.getByLabel('Verification code').fill(await verificationCode(request, email));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toasts.filter({ hasText: 'Account verified successfully!' })).toBeVisible();
  await expect(toasts.filter({ hasText: /Invalid verification code/ })).toHaveCount(0);
  await snap(page, 'guided-phone-toast');
}

/** Onboarding after verification: the congratulations step, then the business details. */
async function giveBusinessDetails(page: Page) {
  // On to /congratulations: the toast stays behind, and the steps and title are clear.
  await expect(page).toHaveURL(/\/congratulations$/, { timeout: 5_000 });
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Step 1 of 2' })).toBeVisible();
  await page.getByRole('link', { name: 'Next' }).click();

  // Business details ask the time zone, guessed from the phone, shown as its city (issue 39).
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue(journeyCity);
  await page.getByLabel('Business name').fill('Bella Salon');
  await page.getByLabel('Business phone').pressSequentially('5551234567');
  await snap(page, 'guided-onboarding-time-zone-phone');
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByRole('button', { name: 'Go to my account' }).click();
}

/** 1. The text number: on the local phone a 555-01xx number verifies at once. */
async function getTextNumber(page: Page) {
  await checklist(page).getByRole('link', { name: 'Get your text number' }).click();
  // Straight to the text-number card, in view (issue 27), not the top of Billing.
  await expect(page).toHaveURL(/\/account\?tab=billing#text-number$/);
  await expect(page.getByTestId('phone-number-section')).toBeInViewport();
  await page.getByRole('button', { name: 'Request a number' }).click();
  await expect(page.getByTestId('phone-number-section').getByText('Verified', { exact: true })).toBeVisible();
  await backToAccount(page);
  await expect(checklist(page).getByText('1 of 3 done')).toBeVisible();
  await expect(checklist(page).getByRole('link', { name: 'Get your text number' })).toHaveCount(0);
}

/** 2. Customers: the CSV import is offered, then one is added by hand. */
async function addCustomers(page: Page) {
  await checklist(page).getByRole('link', { name: 'Add customers' }).click();
  await expect(page).toHaveURL(/\/waitlist$/);
  await expect(page.getByTestId('text-number-notice')).toHaveCount(0);
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await expect(page.getByText('Choose a CSV file')).toBeVisible();
  await snap(page, 'guided-csv-import-phone');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Ana Ruiz');
  await dialog.getByLabel('Mobile phone').fill('212-555-0101');
  await dialog.getByLabel('How did they agree to texts?').selectOption('verbal');
  await dialog.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(dialog).toHaveCount(0);
  await backToAccount(page);
  await expect(checklist(page).getByText('2 of 3 done')).toBeVisible();
}

/** 3. The first slot, in the business's own time zone. */
async function openFirstSlot(page: Page) {
  await checklist(page).getByRole('link', { name: 'Open your first slot' }).click();
  await expect(page).toHaveURL(/\/openings$/);
  const form = page.getByRole('form', { name: 'Open a slot' });
  await expect(
    form.getByText(`In your business time zone (${journeyCity}, `, { exact: false }),
  ).toBeVisible();
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('15:30');
  await form.getByLabel('Service').fill('Haircut');
  await form.getByLabel(/Price/).fill('45');
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  await page.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page).toHaveURL(/\/openings\/[\w-]+$/);
}

test.describe('a new owner on a phone (390×844)', () => {
  test.use({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    timezoneId: journeyZone,
  });

  test('from verification to a first slot by the guided start, ticked from real state', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const owner = await onboardedOwner(request, newOwner('guided'), 'registered');
    await signIn(page, owner.token);
    await page.goto('/verify-account');
    await verifyWithAWrongCodeFirst(page, request, owner.email);
    await giveBusinessDetails(page);

    // The guided start: nothing done yet, each step a link to where it is done.
    await expect(page).toHaveURL(/\/account$/);
    await expect(checklist(page)).toBeVisible();
    await expect(checklist(page).getByText('0 of 3 done')).toBeVisible();
    await snap(page, 'guided-checklist-phone');
    await getTextNumber(page);
    await addCustomers(page);
    await openFirstSlot(page);

    // All done: the checklist goes away.
    await backToAccount(page);
    await expect(page.getByRole('heading', { name: 'Your information' })).toBeVisible();
    await expect(checklist(page)).toHaveCount(0);
  });

  test('without a number, Openings says so and a refused alert shows next to the button, in view', async ({
    page,
    request,
  }) => {
    const owner = await onboardedOwner(request, newOwner('nonumber'));
    const added = await request.post('/api/v1/waitlist', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: 'Ana Ruiz', phone: '2125550101', consentMethod: 'verbal' },
    });
    expect(added.status()).toBe(201);
    await signIn(page, owner.token);
    await page.goto('/openings');
    const notice = page.getByTestId('text-number-notice');
    await expect(notice).toBeVisible();
    const form = page.getByRole('form', { name: 'Open a slot' });
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('Date').fill(tomorrow);
    await form.getByLabel('Time', { exact: true }).fill('15:30');
    await form.getByLabel('Service').fill('Haircut');
    await form.getByRole('button', { name: 'See who gets the text' }).click();
    const refusal = form.getByRole('alert');
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText('You have no text number yet');
    await expect(refusal).toBeInViewport();
    await expect(refusal.getByRole('link', { name: 'Get your text number' })).toBeVisible();
    await snap(page, 'guided-refused-alert-phone');
    await notice.getByRole('link', { name: 'Get your text number' }).click();
    await expect(page).toHaveURL(/\/account\?tab=billing#text-number$/);
    await expect(page.getByTestId('phone-number-section')).toBeInViewport();
  });

  test('the plan-change toast shows its charge sentence whole, after the trial warning', async ({
    page,
    request,
  }) => {
    const owner = await onboardedOwner(request, newOwner('upgrade'));
    await signIn(page, owner.token);
    await page.goto('/account?tab=billing');
    const card = page.getByRole('form', { name: 'Add a card' });
    await card.getByLabel('Card number').fill('4242424242424242');
    await card.getByLabel('Expiry (MM/YY)').fill('1234');
    await card.getByLabel('CVC').fill('123');
    await card.getByRole('button', { name: 'Save Card' }).click();
    await expect(
      page.getByTestId('toast').filter({ hasText: 'Payment method added successfully' }),
    ).toBeVisible();

    await page.goto('/account?tab=plan');
    await page.getByRole('button', { name: 'Select Starter' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
    await expect(dialog.getByText('Your free trial ends today')).toBeVisible();
    await expect(dialog.getByText(/days? of free trial left/)).toBeVisible();
    await dialog.getByRole('button', { name: 'Confirm Plan Change' }).click();
    const toast = page.getByTestId('toast').filter({ hasText: /plan has been changed/ });
    await expect(toast).toBeVisible();
    await expect(toast).toContainText('$29.00');
    // Nothing cut off: the text fits its box, and the box fits the screen.
    const body = toast.locator('.toast__body');
    expect(await body.evaluate((node) => node.scrollHeight <= node.clientHeight + 1)).toBe(true);
    await expect(toast).toBeInViewport({ ratio: 1 });
    await snap(page, 'guided-plan-change-toast-phone');
  });
});

test('screens changed by the guided start, at 1280 px', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const owner = await onboardedOwner(request, newOwner('desktop'));
  await signIn(page, owner.token);
  await page.goto('/account');
  await expect(checklist(page)).toBeVisible();
  await snap(page, 'guided-checklist-desktop');
  await page.goto('/account?tab=billing');
  await expect(page.getByRole('form', { name: 'Billing details' })).toBeVisible();
  await snap(page, 'guided-billing-details-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await snap(page, 'guided-billing-details-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/waitlist');
  await expect(page.getByTestId('text-number-notice')).toBeVisible();
  await page.getByRole('button', { name: 'Import CSV' }).click();
  await snap(page, 'guided-csv-import-desktop');
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  const response = await request.get('/no-such-page');
  expect(response.status()).toBe(404);
  expect(await response.text()).toContain('<div id="root">');
});
