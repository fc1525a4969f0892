import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { journeyZone, newOwner, signIn, snap, verificationCode } from '../support/app.ts';

/**
 * Issue 27: the longest names the contract allows, without a space to break at (owner first and last name
 * 100 characters each, business name 120, customer and service name 100), stay inside a 390 px phone on
 * every owner screen: the page never scrolls sideways and each screen's buttons stay on screen.
 */
test.use({ viewport: { width: 390, height: 844 } });

/** An unbroken name of exactly `length` letters, starting with `start` so each is told apart. */
const unbroken = (start: string, length: number) => (start + 'abcdefghij'.repeat(20)).slice(0, length);

const longest = {
  firstName: unbroken('Bartholomew', 100),
  lastName: unbroken('Wolfeschlegel', 100),
  businessName: unbroken('BellaSalonAndBarbershop', 120),
  customerName: unbroken('Maximiliana', 100),
  serviceName: unbroken('Balayage', 100),
};

/** The owner, through the real API: register, verify, business details, a time zone and a text number. */
async function ownerWithTheLongestNames(request: APIRequestContext) {
  const owner = { ...newOwner('long'), firstName: longest.firstName, lastName: longest.lastName };
  const registered = await request.post('/api/v1/auth/register', { data: owner });
  expect(registered.status(), await registered.text()).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };
  const code = await verificationCode(request, owner.email);
  const steps: [string, string, unknown][] = [
    ['post', '/api/v1/auth/verify-account', { verificationCode: code }],
    [
      'post',
      '/api/v1/auth/business-verification',
      { businessName: longest.businessName, businessPhone: '5551234567' },
    ],
    ['put', '/api/v1/settings/time-zone', { timeZone: journeyZone }],
    ['post', '/api/v1/phone-number/request', {}],
    ['post', '/api/v1/phone-number/verify', {}],
  ];
  let businessNumber = '';
  for (const [method, path, data] of steps) {
    const answer =
      method === 'put'
        ? await request.put(path, { headers, data })
        : await request.post(path, { headers, data });
    expect(answer.ok(), `${path}: ${await answer.text()}`).toBe(true);
    if (path.startsWith('/api/v1/phone-number')) businessNumber = (await answer.json()).data.number as string;
  }
  return { token, headers, businessNumber };
}

/** A customer with the longest name waits for a service with the longest name; a slot for it opens. */
async function customerAndOpening(request: APIRequestContext, headers: Record<string, string>) {
  const service = await request.post('/api/v1/services', {
    headers,
    data: { name: longest.serviceName, durationMinutes: 45, priceCents: 6500 },
  });
  expect(service.status(), await service.text()).toBe(201);
  const phone = '+12125550191';
  const added = await request.post('/api/v1/waitlist', {
    headers,
    data: { name: longest.customerName, phone, consentMethod: 'verbal', notes: unbroken('Prefers', 300) },
  });
  expect(added.status(), await added.text()).toBe(201);
  const customerId = (await added.json()).data.id as string;
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const opened = await request.post('/api/v1/openings', {
    headers,
    data: {
      startsAt: `${tomorrow}T15:00`,
      durationMinutes: 45,
      service: longest.serviceName,
      priceCents: 6500,
      mode: 'all',
    },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  return { customerId, phone, openingId: (await opened.json()).data.id as string };
}

/** Nothing wider than the phone: the page does not scroll sideways. */
async function fitsThePhone(page: Page, name: string) {
  await snap(page, `long-names-${name}`);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(width, `${name}: the page is ${width} px wide`).toBeLessThanOrEqual(390);
}

/** The whole control is on screen, left to right (a long name beside it does not push it off). */
async function onScreen(locator: Locator) {
  await expect(locator).toBeVisible();
  const box = (await locator.boundingBox())!;
  const name = (await locator.textContent()) ?? '';
  expect.soft(box.x, name).toBeGreaterThanOrEqual(0);
  expect.soft(box.x + box.width, name).toBeLessThanOrEqual(390);
}

/** The account's tabs and the phone menu, which name the owner and the business. */
async function accountScreens(page: Page) {
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
  await expect(page.getByText(longest.businessName).first()).toBeVisible();
  await fitsThePhone(page, 'account-information');
  await onScreen(page.getByRole('button', { name: 'Update My Information' }));
  await onScreen(page.getByRole('button', { name: 'Open menu' }));

  await page.getByRole('button', { name: 'Update My Information' }).click();
  await expect(page.getByLabel('First name')).toHaveValue(longest.firstName);
  await fitsThePhone(page, 'account-edit');
  await onScreen(page.getByRole('button', { name: 'Save Information' }));

  // The phone menu names the owner; its links and Logout stay on screen.
  await page.getByRole('button', { name: /Open menu/ }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByText(longest.firstName, { exact: false })).toBeVisible();
  await fitsThePhone(page, 'menu');
  await onScreen(menu.getByRole('button', { name: 'Logout' }));
  await page.getByRole('button', { name: /Close menu|Open menu/ }).click();

  // The welcome step greets the owner by first name.
  await page.goto('/congratulations');
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(longest.firstName) })).toBeVisible();
  await fitsThePhone(page, 'congratulations');
  await onScreen(page.getByRole('button', { name: 'Next' }).or(page.getByRole('link', { name: 'Next' })));

  for (const tab of ['plan', 'billing']) {
    await page.goto(`/account?tab=${tab}`);
    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await fitsThePhone(page, `account-${tab}`);
    await onScreen(page.getByRole('button', { name: 'Update My Information' }));
  }
}

/** On a desktop the account menu cuts the name short on one line, inside the window. */
async function desktopAccountMenu(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/account');
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  const accountMenu = page.getByRole('menu', { name: 'Account' });
  await expect(accountMenu.getByRole('menuitem').last()).toBeVisible();
  await snap(page, 'long-names-account-menu-1280');
  const box = (await accountMenu.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  expect(box.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
}

test('the longest names wrap inside their cards on every owner screen at 390 px', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const owner = await ownerWithTheLongestNames(request);
  const { customerId, phone, openingId } = await customerAndOpening(request, owner.headers);
  // The customer asks a question, so the inbox has a conversation with the long name.
  const asked = await request.post('/api/v1/dev/phone/reply', {
    data: { from: phone, to: owner.businessNumber, text: 'What time is it exactly?' },
  });
  expect(asked.ok(), await asked.text()).toBe(true);
  await signIn(page, owner.token);

  await accountScreens(page);

  await page.goto('/waitlist');
  const row = page.getByRole('link', { name: new RegExp(longest.customerName) }).first();
  await expect(row).toBeVisible();
  await fitsThePhone(page, 'waitlist');
  await onScreen(page.getByRole('button', { name: 'Edit' }).first());
  await onScreen(page.getByRole('button', { name: 'Remove' }).first());
  await onScreen(page.getByRole('button', { name: /Add (a )?customer/ }).first());

  await page.goto(`/waitlist/${customerId}`);
  await expect(page.getByRole('heading', { level: 1, name: longest.customerName })).toBeVisible();
  await fitsThePhone(page, 'customer');
  await onScreen(page.getByRole('button', { name: 'Send a text' }));

  await page.goto('/openings');
  await expect(page.getByRole('link', { name: longest.serviceName })).toBeVisible();
  await fitsThePhone(page, 'openings');
  await onScreen(page.getByRole('link', { name: 'Details' }));
  await onScreen(page.getByRole('button', { name: /^Close/ }).first());

  await page.goto(`/openings/${openingId}`);
  await expect(page.getByRole('heading', { level: 1, name: longest.serviceName })).toBeVisible();
  await expect(page.getByText(longest.customerName).first()).toBeVisible();
  await fitsThePhone(page, 'opening');

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await fitsThePhone(page, 'dashboard');

  await page.goto('/inbox');
  const conversation = page
    .getByRole('navigation', { name: 'Conversations' })
    .getByRole('link', { name: new RegExp(longest.customerName) });
  await expect(conversation).toBeVisible();
  await fitsThePhone(page, 'inbox');
  await conversation.click();
  await expect(
    page.getByRole('list', { name: /Texts with/ }).getByText('What time is it exactly?'),
  ).toBeVisible();
  await fitsThePhone(page, 'inbox-thread');
  await onScreen(page.getByRole('button', { name: /Send/ }));

  await page.goto('/services');
  await expect(page.getByRole('listitem', { name: longest.serviceName })).toBeVisible();
  await fitsThePhone(page, 'services');
  await onScreen(page.getByRole('listitem', { name: longest.serviceName }).getByRole('button').first());

  const link = (await (await request.get('/api/v1/join-link', { headers: owner.headers })).json()).data as {
    slug: string;
  };
  await page.goto(`/join/${link.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: longest.businessName })).toBeVisible();
  await fitsThePhone(page, 'join');
  await onScreen(page.getByRole('button', { name: 'Join the waitlist' }));

  await page.goto(`/join/${link.slug}/poster`);
  await expect(page.getByRole('heading', { level: 1, name: longest.businessName })).toBeVisible();
  await fitsThePhone(page, 'poster');

  await desktopAccountMenu(page);
});
