import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newOwner, onboardedOwner, signIn, snap, verificationCode } from '../support/app.ts';

/**
 * The admin user list (issue 6). The e2e server is shared by every journey, so these owners carry a
 * surname nobody else uses ("Quill") and the test searches for it first.
 */
async function owner(
  request: APIRequestContext,
  firstName: string,
  business: { name: string; phone: string } | 'unverified',
) {
  const details = { ...newOwner(firstName.toLowerCase()), firstName, lastName: 'Quill' };
  const registered = await onboardedOwner(request, details, 'registered');
  if (business === 'unverified') return registered;
  const headers = { authorization: `Bearer ${registered.token}` };
  const code = await verificationCode(request, details.email);
  expect(
    (await request.post('/api/v1/auth/verify-account', { headers, data: { verificationCode: code } })).ok(),
  ).toBe(true);
  const submitted = await request.post('/api/v1/auth/business-verification', {
    headers,
    data: { businessName: business.name, businessPhone: business.phone },
  });
  expect(submitted.ok()).toBe(true);
  return registered;
}

const rows = (page: Page) => page.getByRole('row').filter({ hasText: 'Quill' });

test('an admin filters, sorts and searches the user list, and the view lives in the address', async ({
  page,
  request,
}) => {
  await owner(request, 'Zora', { name: 'Quokka Barbers', phone: '2125550101' });
  await owner(request, 'Yuri', { name: 'Quokka Nails', phone: '3125550202' });
  await owner(request, 'Xena', 'unverified');
  const admin = await onboardedOwner(request, { ...newOwner(), email: 'list-admin@e2e.test' });
  await signIn(page, admin.token);

  await page.goto('/account');
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: /admin|users/i, level: 1 })).toBeVisible();

  // Search: three Quills, newest first by default (Xena signed up last).
  await page.getByLabel('Search').fill('quill');
  await expect(rows(page)).toHaveCount(3);
  await expect(page).toHaveURL(/search=quill/);
  await expect(rows(page).first()).toContainText('Xena');
  await expect(rows(page).filter({ hasText: 'Yuri' })).toContainText('+1 (312) 555-0202');
  await expect(rows(page).filter({ hasText: 'Yuri' })).toContainText('Free Trial');

  // Sort by name: A→Z first, then Z→A.
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page).toHaveURL(/sort=firstName/);
  await expect(rows(page).first()).toContainText('Xena');
  await expect(rows(page).last()).toContainText('Zora');
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page).toHaveURL(/order=desc/);
  await expect(rows(page).first()).toContainText('Zora');

  // Filter: only the unverified Quill.
  await page.getByLabel('Verified').selectOption({ label: 'Unverified' });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Xena');
  await expect(page).toHaveURL(/verified=false/);
  await snap(page, 'admin-filtered');

  // The address holds the view: a reload (or a shared link) shows the same list.
  await page.reload();
  await expect(page.getByLabel('Search')).toHaveValue('quill');
  await expect(page.getByLabel('Verified')).toHaveValue('false');
  await expect(rows(page)).toHaveCount(1);

  // A phone typed in any format finds its owner.
  await page.getByLabel('Verified').selectOption({ label: 'All' });
  await page.getByLabel('Search').fill('(312) 555-02');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Yuri');

  // Nothing matches: the empty state.
  await page.getByLabel('Search').fill('quill nobody');
  await expect(page.getByText('No users match')).toBeVisible();

  await page.getByLabel('Search').fill('quokka');
  await expect(rows(page)).toHaveCount(2);
  await snap(page, 'admin-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText('Zora', { exact: false }).first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'admin-phone');
});

test('a non-admin is sent from /admin to /, and the API refuses them', async ({ page, request }) => {
  const plain = await onboardedOwner(request);
  await signIn(page, plain.token);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole('button', { name: 'Account', exact: true }).click();
  await expect(page.getByRole('menuitem', { name: 'Admin' })).toHaveCount(0);
  const answer = await request.get('/api/v1/admin/users', {
    headers: { authorization: `Bearer ${plain.token}` },
  });
  expect(answer.status()).toBe(403);
});
