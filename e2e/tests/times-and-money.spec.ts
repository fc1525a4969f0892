import { expect, test } from '@playwright/test';
import { newOwner, onboardedOwner, signIn, snap, verifiedTextNumber } from '../support/app.ts';

/**
 * Issue 27 on a 390 px phone, against the real server: times on the 12-hour clock (waitlist, the edit form,
 * openings, a customer's texts), the poster's number, what a plan change charges today before Confirm, and
 * the plan card's Cancel plan.
 */
const width = 390;
test.use({ viewport: { width, height: 844 } });

test('times read 9:00 am, the poster prints the number, the plan change says what is charged today', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await onboardedOwner(request, newOwner('times'));
  const headers = { authorization: `Bearer ${owner.token}` };
  await verifiedTextNumber(request, headers);
  const added = await request.post('/api/v1/waitlist', {
    headers,
    data: {
      name: 'Cleo Park',
      phone: '+12125550171',
      consentMethod: 'verbal',
      preferences: [
        { days: [1, 2, 3, 4, 5], from: '09:00', to: '17:00' },
        { days: [0, 6], from: '12:30', to: '15:00' },
      ],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const other = await request.post('/api/v1/waitlist', {
    headers,
    data: { name: 'Omar Haddad', phone: '+12125550172', consentMethod: 'verbal' },
  });
  expect(other.status()).toBe(201);
  const opened = await request.post('/api/v1/openings', {
    headers,
    data: {
      startsAt: new Date(Date.now() + 3 * 3600_000).toISOString(),
      durationMinutes: 45,
      service: 'Color',
    },
  });
  expect(opened.ok(), await opened.text()).toBe(true);
  await signIn(page, owner.token);

  // 1. Times: waitlist list, the edit form, openings, the customer's texts.
  await page.goto('/waitlist');
  await expect(page.getByText('Weekdays 9:00 am–5:00 pm · Weekends 12:30 pm–3:00 pm')).toBeVisible();
  await snap(page, `times-money-waitlist-${width}`);
  await page.getByRole('button', { name: 'Edit Cleo Park' }).click();
  await expect(page.getByTestId('preference-summary').first()).toHaveText('Weekdays 9:00 am–5:00 pm');
  await expect(page.getByTestId('preference-summary').last()).toHaveText('Weekends 12:30 pm–3:00 pm');
  await page.keyboard.press('Escape');
  await page.goto('/openings');
  await expect(page.getByRole('listitem', { name: /^Color/ })).toContainText(/\d:\d\d [ap]m/);
  await snap(page, `times-money-openings-${width}`);
  await page
    .getByRole('listitem', { name: /^Color/ })
    .getByRole('link')
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Color' })).toBeVisible();
  await snap(page, `times-money-opening-${width}`);

  const omar = (await (await request.get('/api/v1/waitlist?search=Omar', { headers })).json()).data[0] as {
    id: string;
  };
  await page.goto(`/waitlist/${omar.id}`);
  await expect(page.locator('.bubble__meta time').first()).toHaveText(/, \d{1,2}:\d\d [ap]m [A-Z]{3}/);
  await snap(page, `times-money-customer-texts-${width}`);

  // 3. The poster with the number.
  const link = (await (await request.get('/api/v1/join-link', { headers })).json()).data as {
    slug: string;
  };
  await page.goto(`/join/${link.slug}/poster`);
  await expect(page.getByText(/Or text JOIN to our number: \(\d{3}\) \d{3}-\d{4}\./)).toBeVisible();
  await snap(page, `times-money-poster-${width}`);

  // 2 and 5. A card, Starter, then the dialog for Growth with today's charge; the card's Cancel plan.
  await page.goto('/account?tab=billing');
  const form = page.getByRole('form', { name: 'Add a card' });
  await form.getByLabel('Card number').fill('4242 4242 4242 4242');
  await form.getByLabel('Expiry (MM/YY)').fill('12/30');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: 'Save Card' }).click();
  await expect(page.getByText('Payment method added successfully').first()).toBeVisible();
  await page.goto('/account?tab=plan');
  await page.getByRole('button', { name: 'Select Starter' }).click();
  let dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog.getByText("You'll be charged $29 today to Visa •••• 4242")).toBeVisible();
  await snap(page, `times-money-dialog-trial-${width}`);
  await dialog.getByRole('button', { name: 'Confirm Plan Change' }).click();
  await expect(page.getByText(/Your plan has been changed to Starter Plan/).first()).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Select Growth' }).click();
  dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog.getByText(/You'll be charged \$\d+(\.\d\d)? today/)).toBeVisible();
  await snap(page, `times-money-dialog-upgrade-${width}`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(
    page.getByRole('article', { name: 'Starter' }).getByRole('button', { name: 'Cancel plan' }),
  ).toBeVisible();
  await snap(page, `times-money-plan-tab-${width}`);
});
