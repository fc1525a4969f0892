import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { closeTab, latestEmail, newOwner, onboardedOwner, signIn, snap } from '../support/app.ts';

/** Fills the local test-mode card form (the role Stripe Elements plays when Stripe is configured). */
async function addCard(page: Page, number: string) {
  const form = page.getByRole('form', { name: 'Add a card' });
  // With no card on file the form is already open; otherwise it opens from Add a Card.
  await expect(form.or(page.getByRole('button', { name: 'Add a Card' }))).toBeVisible();
  if (!(await form.isVisible())) await page.getByRole('button', { name: 'Add a Card' }).click();
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM/YY)').fill('12/30');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Save Card' }).click();
  return form;
}

async function choosePlan(page: Page, plan: 'Starter' | 'Growth') {
  await page.getByRole('button', { name: `Select ${plan}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog).toBeVisible();
  return dialog;
}

const invoiceRows = (page: Page) => page.getByRole('table').getByRole('row');

/** Plan tab on the free trial: no card yet, so the confirmation offers Go to Billing. */
async function fromTrialToBilling(page: Page) {
  await page.goto('/account?tab=plan');
  await expect(page.getByRole('heading', { name: 'Current Plan' })).toBeVisible();
  await expect(page.getByText('Free Trial').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Select Starter' })).toBeVisible();
  await snap(page, 'plan-tab-trial');
  const dialog = await choosePlan(page, 'Starter');
  await expect(dialog.getByText('No payment method on file')).toBeVisible();
  await dialog.getByRole('button', { name: 'Go to Billing' }).click();
  await expect(page).toHaveURL(/\/account\?tab=billing$/);
  await expect(page.getByRole('heading', { name: 'Payment Methods' })).toBeVisible();
}

/** A declined card shows the card network's message and saves nothing; a good one becomes the default. */
async function addCardAfterADecline(
  page: Page,
  request: APIRequestContext,
  owner: Awaited<ReturnType<typeof onboardedOwner>>,
) {
  const form = await addCard(page, '4000 0000 0000 0002');
  await expect(form.getByText('Your card was declined.')).toBeVisible();
  await snap(page, 'billing-card-declined');
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByRole('button', { name: 'Save Card' }).click();
  await expect(page.getByText('Payment method added successfully').first()).toBeVisible();
  const visa = page.getByRole('listitem', { name: /Visa .*4242/ });
  await expect(visa).toBeVisible();
  await expect(visa.getByText('Default')).toBeVisible();
  await latestEmail(request, owner.email, /billing|card/i);
  return visa;
}

/** Trial → Starter monthly: charged now, with an invoice. */
async function upgradeToStarter(
  page: Page,
  request: APIRequestContext,
  owner: Awaited<ReturnType<typeof onboardedOwner>>,
) {
  await page.goto('/account?tab=plan');
  const dialog = await choosePlan(page, 'Starter');
  await snap(page, 'plan-change-dialog');
  await dialog.getByRole('button', { name: 'Confirm Plan Change' }).click();
  await expect(page.getByText(/Your plan has been changed to Starter Plan/).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Current Plan' })).toBeVisible();
  await latestEmail(request, owner.email, /Starter/);

  await page.goto('/account?tab=billing');
  await expect(invoiceRows(page)).toHaveCount(2); // header + one invoice
  await expect(page.getByRole('table').getByText(/^\$29(\.00)?$/)).toBeVisible();
  await expect(page.getByRole('table').getByText('Paid')).toBeVisible();
  await snap(page, 'billing-tab-starter');
}

/** The invoice's PDF is a real PDF, and the hosted invoice opens in a new tab. */
async function checkInvoice(page: Page, request: APIRequestContext) {
  const pdfLink = page.getByRole('link', { name: /^PDF of invoice/ }).first();
  const pdf = await request.get((await pdfLink.getAttribute('href'))!);
  expect(pdf.status()).toBe(200);
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  const [invoicePage] = await Promise.all([
    page.waitForEvent('popup'),
    page
      .getByRole('link', { name: /^View invoice/ })
      .first()
      .click(),
  ]);
  await expect(invoicePage.getByText(/\$29(\.00)?/).first()).toBeVisible();
  await snap(invoicePage, 'hosted-invoice');
  await closeTab(invoicePage);
}

/** Starter → Growth: the prorated difference is charged now (a second invoice). */
async function upgradeToGrowth(page: Page) {
  await page.goto('/account?tab=plan');
  const dialog = await choosePlan(page, 'Growth');
  await dialog.getByRole('button', { name: 'Confirm Plan Change' }).click();
  await expect(page.getByText(/Your plan has been changed to Growth Plan/).first()).toBeVisible();
  await expect(page.getByText(/prorated charge of \$\d+\.\d\d/i).first()).toBeVisible();
  await page.goto('/account?tab=billing');
  await expect(invoiceRows(page)).toHaveCount(3);
}

/** Cancel: stays active to period end, the button reads Cancellation Confirmed; then resume. */
async function cancelAndResume(page: Page) {
  await page.goto('/account?tab=plan');
  await page.getByRole('button', { name: 'Cancel My Plan' }).click();
  const cancelDialog = page.getByRole('dialog', { name: 'Cancel My Plan' });
  await cancelDialog.getByRole('button', { name: 'Confirm Cancellation' }).click();
  await expect(
    page
      .getByText(
        'Your subscription has been cancelled and will remain active until the end of your billing period.',
      )
      .first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancellation Confirmed' })).toBeDisabled();
  await snap(page, 'plan-tab-cancelling');
  await page.getByRole('button', { name: 'Resume Subscription' }).click();
  await expect(page.getByText('Your subscription has been resumed successfully.').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel My Plan' })).toBeEnabled();
}

/** Growth → Starter: scheduled for the end of the period, shown as pending. */
async function downgradeToStarter(page: Page) {
  await page.goto('/account?tab=plan');
  const dialog = await choosePlan(page, 'Starter');
  await expect(dialog.getByText(/end of|period end|on [A-Z][a-z]{2}/i).first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm Plan Change' }).click();
  await expect(page.getByRole('button', { name: /^Starts / })).toBeVisible();
  await snap(page, 'plan-tab-downgrade-pending');
}

/** A second card, made the default, then the first one removed. */
async function replaceTheDefaultCard(page: Page, visa: Locator) {
  await page.goto('/account?tab=billing');
  await addCard(page, '5555 5555 5555 4444');
  const mastercard = page.getByRole('listitem', { name: /Mastercard .*4444/ });
  await expect(mastercard).toBeVisible();
  await mastercard.getByRole('button', { name: /Set as default/ }).click();
  await expect(page.getByText('Default payment method updated successfully').first()).toBeVisible();
  await expect(mastercard.getByText('Default')).toBeVisible();
  await visa.getByRole('button', { name: /^Delete/ }).click();
  await page
    .getByRole('dialog', { name: 'Delete Card' })
    .getByRole('button', { name: 'Delete Card' })
    .click();
  await expect(page.getByText('Payment method deleted successfully').first()).toBeVisible();
  await expect(visa).toHaveCount(0);
  await snap(page, 'billing-tab');
}

// The journey moves the server's local billing clock; put it back so later journeys' trials are not over.
test.afterAll(async ({ request }) => {
  expect((await request.post('/api/v1/dev/billing/reset')).ok()).toBe(true);
});

/**
 * Issue 4's journey on local billing: a declined card, a good card, trial → Starter, the invoice and its
 * PDF, Starter → Growth (prorated), Growth → Starter (pending until period end), cancel, resume, and
 * removing a card. Each step needs the state the previous one left, so it is one test.
 */
test('an owner pays by test card, upgrades, downgrades, cancels, resumes and removes a card', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await onboardedOwner(request, newOwner('billing'));
  await signIn(page, owner.token);

  await fromTrialToBilling(page);
  const visa = await addCardAfterADecline(page, request, owner);
  await upgradeToStarter(page, request, owner);
  await checkInvoice(page, request);
  await upgradeToGrowth(page);
  await cancelAndResume(page);
  await downgradeToStarter(page);
  await replaceTheDefaultCard(page, visa);

  // The local billing clock moves past the period end: the downgrade applies and Starter renews on the
  // remaining card.
  const advanced = await request.post('/api/v1/dev/billing/advance', { data: { days: 31 } });
  expect(advanced.ok()).toBe(true);
  await page.goto('/account?tab=plan');
  await expect(page.getByText('Starter Plan', { exact: true })).toBeVisible();
  await page.goto('/account?tab=billing');
  await expect(invoiceRows(page)).toHaveCount(4);
  await expect(invoiceRows(page).nth(1)).toContainText('$29');
});

test('the plan and billing tabs on a phone', async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const page = await context.newPage();
  const owner = await onboardedOwner(request, newOwner('billing-phone'));
  await signIn(page, owner.token);
  await page.goto('/account?tab=plan');
  await expect(page.getByRole('button', { name: 'Select Growth' })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'mobile-plan-tab');
  await page.goto('/account?tab=billing');
  await expect(page.getByRole('heading', { name: 'Payment Methods' })).toBeVisible();
  await snap(page, 'mobile-billing-tab');
  await context.close();
});

test('/subscription/success without a session id says Invalid session ID', async ({ page, request }) => {
  const owner = await onboardedOwner(request, newOwner('session'));
  await signIn(page, owner.token);
  await page.goto('/subscription/success');
  await expect(page.getByText('Invalid session ID')).toBeVisible();
  await expect(page.getByText('Session Error')).toBeVisible();
  await page.goto('/subscription/cancel');
  await expect(page.getByText(/no payment was processed/i)).toBeVisible();
  await snap(page, 'subscription-cancel');
});
