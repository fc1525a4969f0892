import { expect, type Page, test } from '@playwright/test';
import { journeyZone, newOwner, onboardedOwner, signIn, snap } from '../support/app.ts';

/**
 * Issue 39, "The phone": every place an owner sets something is reached from the phone's menu: Settings
 * (business and time zone, text number, offer rules, calendar, each a page of its own) and SPEC §2's Plan
 * and Billing tabs by their addresses. The time zone is picked by typing a city, not an identifier.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });

const journeyCity = journeyZone.split('/').at(-1)?.replaceAll('_', ' ') ?? '';

/**
 * The zone the owner picks: Honolulu, unless the journeys' owner already has it (the journeys' zone is one where
 * it is now mid-day: Honolulu from 01:00 to 02:00 UTC), then Anchorage, so the pick is always a change.
 */
const target =
  journeyZone === 'Pacific/Honolulu'
    ? {
        id: 'America/Anchorage',
        search: 'anch',
        city: 'Anchorage',
        region: 'Alaska Time',
        offset: /GMT-[89]/,
      }
    : { id: 'Pacific/Honolulu', search: 'hono', city: 'Honolulu', region: 'Hawaii Time', offset: /GMT-10/ };

const noWiderThanThePhone = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

async function openMenu(page: Page) {
  await page.getByRole('button', { name: /^Open menu/ }).tap();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu).toBeVisible();
  return menu;
}

/** From the Settings index to one of its pages by its card, checked, pictured, and back. */
async function visitGroup(page: Page, name: string, path: string, shows: (page: Page) => Promise<void>) {
  await page.getByRole('list', { name: 'Settings groups' }).getByRole('link', { name }).tap();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  expect(await page.title()).toBe(`${name} · Settings · Waitlist & Text`);
  await shows(page);
  await noWiderThanThePhone(page);
  await snap(page, `settings-390-${path.split('/').at(-1)}`);
  await page.getByRole('link', { name: '← Settings' }).tap();
  await expect(page).toHaveURL(/\/settings$/);
}

/** Business & time zone: "hono" finds Honolulu (or "anch" Anchorage) with the time there; picked with a tap and saved. */
async function pickTheTargetZone(page: Page) {
  const zone = page.getByRole('combobox', { name: 'Business time zone' });
  await expect(zone).toHaveValue(journeyCity);
  await zone.tap();
  await expect(page.getByRole('listbox', { name: 'Business time zone choices' })).toBeVisible();
  await zone.fill(target.search);
  const option = page.getByRole('option', { name: new RegExp(`^${target.city}`) });
  await expect(option).toHaveCount(1);
  await expect(option).toContainText(/\d{1,2}:\d{2} (am|pm)/);
  await expect(option).toContainText(target.region);
  await expect(option).toContainText(target.offset);
  await snap(page, 'settings-390-time-zone-search');
  await option.tap();
  await expect(zone).toHaveValue(target.city);
  await page.getByRole('button', { name: 'Save time zone' }).tap();
  await expect(page.getByTestId('toast').filter({ hasText: 'Time zone saved' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save time zone' })).toBeDisabled();
}

test('an owner on a phone reaches every setting from the menu', async ({ page, request }) => {
  const owner = await onboardedOwner(request, newOwner('settings'));
  await signIn(page, owner.token);
  await page.goto('/waitlist');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  let menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Plan' })).toHaveAttribute('href', '/account?tab=plan');
  await expect(menu.getByRole('link', { name: 'Billing' })).toHaveAttribute('href', '/account?tab=billing');
  await snap(page, 'settings-390-menu');
  await menu.getByRole('link', { name: 'Settings' }).tap();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await noWiderThanThePhone(page);
  await snap(page, 'settings-390-index');

  await visitGroup(page, 'Business & time zone', '/settings/business', pickTheTargetZone);
  const saved = await request.get('/api/v1/settings/time-zone', {
    headers: { authorization: `Bearer ${owner.token}` },
  });
  expect((await saved.json()).data.timeZone).toBe(target.id);
  await visitGroup(page, 'Text number', '/settings/text-number', async () => {
    await expect(page.getByRole('button', { name: 'Request a number' })).toBeVisible();
  });
  await visitGroup(page, 'Offer rules', '/settings/offer-rules', async () => {
    await expect(page.getByRole('form', { name: 'Offer rules' })).toBeVisible();
  });
  await visitGroup(page, 'Calendar', '/settings/calendar', async () => {
    await expect(page.getByLabel('Kind of calendar')).toBeVisible();
  });

  // The Calendar tab's old address (Google's consent screen still returns there) leads to Settings.
  await page.goto('/account?tab=calendar');
  await expect(page).toHaveURL(/\/settings\/calendar$/);

  // Plan and Billing stay on the account page, reached by their addresses.
  menu = await openMenu(page);
  await menu.getByRole('link', { name: 'Plan' }).tap();
  await expect(page).toHaveURL(/\/account\?tab=plan$/);
  await expect(page.getByRole('heading', { name: 'Current Plan' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Delete My Account' })).toBeVisible();
  menu = await openMenu(page);
  await expect(menu.getByRole('link', { name: 'Plan' })).toHaveAttribute('aria-current', 'page');
  await menu.getByRole('link', { name: 'Billing' }).tap();
  await expect(page).toHaveURL(/\/account\?tab=billing$/);
  await expect(page.getByTestId('phone-number-section')).toBeVisible();
  // SPEC §2: the account page's tab bar shows only Update My Information.
  await expect(page.getByRole('navigation', { name: 'Account sections' }).getByRole('button')).toHaveText([
    'Update My Information',
  ]);
  await snap(page, 'settings-390-billing');

  // Openings name the saved zone as a place and link to where it is changed; Services link to the offer rules.
  await page.goto('/openings');
  const openSlot = page.getByRole('form', { name: 'Open a slot' });
  await expect(
    openSlot.getByText(`In your business time zone (${target.city}, ${target.region}).`),
  ).toBeVisible();
  await expect(
    openSlot.getByRole('link', { name: 'Change the business time zone in Settings' }),
  ).toHaveAttribute('href', '/settings/business');
  await page.goto('/services');
  await page.getByRole('link', { name: 'Set the offer rules' }).tap();
  await expect(page).toHaveURL(/\/settings\/offer-rules$/);
});

test.describe('on a wide screen', () => {
  test.use({ viewport: { width: 1280, height: 900 }, isMobile: false, hasTouch: false });

  test('the account menu and the Settings pages beside their groups', async ({ page, request }) => {
    const owner = await onboardedOwner(request, newOwner('settings-wide'));
    await signIn(page, owner.token);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    await snap(page, 'settings-1280-index');

    await page.getByRole('button', { name: 'Account' }).click();
    const accountMenu = page.getByRole('menu', { name: 'Account' });
    await expect(accountMenu.getByRole('menuitem')).toHaveText([
      'My Account',
      'Plan',
      'Billing',
      'Settings',
      'Logout',
    ]);
    await snap(page, 'settings-1280-account-menu');
    await page.keyboard.press('Escape');

    await page
      .getByRole('list', { name: 'Settings groups' })
      .getByRole('link', { name: 'Business & time zone' })
      .click();
    const side = page.getByRole('navigation', { name: 'Settings' });
    await expect(side.getByRole('link', { name: 'Business & time zone' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('link', { name: '← Settings' })).toBeHidden();
    const zone = page.getByRole('combobox', { name: 'Business time zone' });
    await zone.click();
    await page.keyboard.type('eastern');
    await expect(page.getByRole('option').first()).toContainText('New York');
    await snap(page, 'settings-1280-time-zone-search');
    await page.keyboard.press('Enter');
    await expect(zone).toHaveValue('New York');
    await snap(page, 'settings-1280-business');
    await side.getByRole('link', { name: 'Offer rules' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Offer rules' })).toBeVisible();
    await snap(page, 'settings-1280-offer-rules');
  });
});
