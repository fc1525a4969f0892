import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newOwner, onboardedOwner, signIn, snap, verifiedTextNumber } from '../support/app.ts';

/**
 * Issue 26 on a phone (390 px): an owner sets up two services and a stylist, opens a slot for one of them,
 * and sees before and after sending who is asked, in what order and why; the customer waiting for a longer
 * service is not asked.
 */

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function ownerWithANumber(request: APIRequestContext) {
  const owner = await onboardedOwner(request, newOwner('offers'));
  const headers = { authorization: `Bearer ${owner.token}` };
  await verifiedTextNumber(request, headers);
  return { ...owner, headers };
}

async function addEntry(page: Page, list: 'Add a service' | 'Add a staff member', values: string[]) {
  await page.getByRole('button', { name: list }).click();
  const dialog = page.getByRole('dialog');
  const [name, minutes, price] = values;
  await dialog.getByLabel('Name').fill(name!);
  if (minutes) await dialog.getByLabel('Length (minutes)').fill(minutes);
  if (price) await dialog.getByLabel(/Price/).fill(price);
  await dialog.getByRole('button', { name: /^Add (service|staff member)$/ }).click();
  await expect(dialog).toHaveCount(0);
}

const noWiderThanThePhone = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

test('two services and a stylist, a slot opened for one, and who is asked and why', async ({
  page,
  request,
}) => {
  const owner = await ownerWithANumber(request);
  await signIn(page, owner.token);

  // Services & staff: an empty page says what services are for.
  await page.goto('/services');
  await expect(
    page.getByText(/Add your services so each opening is offered only to customers it fits/),
  ).toBeVisible();
  await addEntry(page, 'Add a service', ['Cut', '45', '65']);
  await addEntry(page, 'Add a service', ['Colour', '120', '150']);
  await addEntry(page, 'Add a staff member', ['Maria']);
  await expect(page.getByRole('listitem', { name: 'Colour' })).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Maria' })).toBeVisible();
  await noWiderThanThePhone(page);
  await snap(page, 'services-390');

  // The waitlist: Priya wants a Cut with Maria, Jenny anything, Omar a Colour (two hours).
  const services = (await (await request.get('/api/v1/services', { headers: owner.headers })).json())
    .data as {
    id: string;
    name: string;
  }[];
  const staff = (await (await request.get('/api/v1/staff', { headers: owner.headers })).json()).data as {
    id: string;
  }[];
  const cut = services.find((service) => service.name === 'Cut')!;
  const colour = services.find((service) => service.name === 'Colour')!;
  const customers = [
    { name: 'Priya Shah', phone: '+12125550171', serviceId: cut.id, staffId: staff[0]!.id },
    { name: 'Jenny Moss', phone: '+12125550172' },
    { name: 'Omar Haddad', phone: '+12125550173', serviceId: colour.id },
  ];
  for (const customer of customers) {
    const added = await request.post('/api/v1/waitlist', {
      headers: owner.headers,
      data: { ...customer, consentMethod: 'verbal' },
    });
    expect(added.status(), await added.text()).toBe(201);
  }

  // Open tomorrow's 15:30 Cut with Maria: the service fills in its length and price.
  await page.goto('/openings');
  const form = page.getByRole('form', { name: 'Open a slot' });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('15:30');
  // The field is a text box until the services arrive, then a list: wait for the list.
  await form.getByRole('combobox', { name: 'Service' }).selectOption(cut.id);
  await form.getByLabel('With', { exact: true }).selectOption({ label: 'Maria' });
  await expect(form.getByLabel('Duration')).toHaveValue('45');
  await expect(form.getByLabel(/Price/)).toHaveValue(/^65(\.00)?$/);
  await expect(form.getByRole('radio', { name: /Automatic/ })).toBeChecked();
  await snap(page, 'open-slot-services-390');

  // Before anything is sent: who fits, in what order, why, and how many texts the plan expects.
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  const figures = page.getByTestId('preview-figures');
  await expect(figures).toContainText('2 customers fit this slot');
  await expect(figures).toContainText(/expects about \d+ texts?/);
  const list = page.getByRole('list', { name: 'Who gets the text, in order' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem', { name: 'Priya Shah' })).toContainText(/new: no offers yet/);
  await expect(list.getByRole('listitem', { name: 'Omar Haddad' })).toHaveCount(0);
  await noWiderThanThePhone(page);
  await snap(page, 'open-slot-preview-390');

  // Sent: the opening says, for each customer, their place and why.
  await page.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page).toHaveURL(/\/openings\/[\w-]+$/);
  const priya = page.getByRole('listitem', { name: 'Priya Shah' });
  await expect(priya).toContainText(/(1st|2nd)/);
  await expect(priya).toContainText(/new: no offers yet/);
  await expect(page.getByRole('listitem', { name: 'Omar Haddad' })).toHaveCount(0);
  await noWiderThanThePhone(page);
  await snap(page, 'opening-reasons-390');
});
