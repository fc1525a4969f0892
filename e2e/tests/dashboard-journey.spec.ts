import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newOwner, onboardedOwner, signIn, snap } from '../support/app.ts';

/**
 * Issue 14: a new owner at phone size fills a slot and sees its price on the dashboard; the dashboard is
 * pictured empty and with data at 390 px and 1280 px (e2e/screenshots/dashboard-*).
 */
test.use({ viewport: { width: 390, height: 844 } });

async function phoneInbox(request: APIRequestContext, number: string) {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  const json = (await response.json()) as {
    messages?: { direction: string; body: string; fromNumber?: string; from?: string }[];
    data?: { direction: string; body: string; fromNumber?: string; from?: string }[];
  };
  return json.messages ?? json.data ?? [];
}

async function both(page: Page, name: string) {
  await snap(page, `${name}-390`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 390, height: 844 });
}

test('a new owner at phone size fills a slot and sees its price on the dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await onboardedOwner(request, newOwner('dashboard'));
  await signIn(page, owner.token);
  await page.goto('/account');

  // Empty: the dashboard says what will appear and how to get there.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Your earnings will show here' })).toBeVisible();
  await both(page, 'dashboard-empty');

  // A text number, a customer, an opening with its price.
  await page.goto('/account?tab=billing');
  await page.getByRole('button', { name: 'Request a number' }).click();
  await expect(page.getByTestId('phone-number-section').getByText('Verified', { exact: true })).toBeVisible();
  await page.goto('/waitlist');
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Priya Shah');
  await dialog.getByLabel('Mobile phone').fill('212-555-0141');
  await dialog.getByLabel('How did they agree to texts?').selectOption('verbal');
  await dialog.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(dialog).toHaveCount(0);

  await page.goto('/openings');
  const form = page.getByRole('form', { name: 'Open a slot' });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('15:00');
  await form.getByLabel('Service').fill('Color');
  await form.getByLabel(/Price/).fill('85.50');
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  await page.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page).toHaveURL(/\/openings\/[\w-]+$/);

  // Priya says YES from her phone (the local phone provider's inbound path).
  let business: { fromNumber?: string; from?: string } | undefined;
  await expect
    .poll(async () => {
      business = (await phoneInbox(request, '+12125550141')).find((m) => m.direction === 'out');
      return Boolean(business);
    })
    .toBe(true);
  const reply = await request.post('/api/v1/dev/phone/reply', {
    data: { from: '+12125550141', to: business?.fromNumber ?? business?.from, text: 'YES' },
  });
  expect(reply.ok()).toBe(true);
  await expect(page.getByTestId('opening-winner')).toContainText('Priya Shah', { timeout: 15_000 });

  // The dashboard shows the slot's price as revenue recovered.
  await page.goto('/dashboard');
  const revenue = page.locator('.dashboard__tile', { hasText: 'Revenue recovered' });
  await expect(revenue).toContainText('$85.50');
  await expect(page.locator('.dashboard__tile', { hasText: 'Openings filled' })).toContainText('1 / 1');
  await expect(page.getByRole('img', { name: /Revenue recovered per week/ })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await both(page, 'dashboard-data');
});
