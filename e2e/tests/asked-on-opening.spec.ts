import { type APIRequestContext, expect, test } from '@playwright/test';
import {
  newOwner,
  onboardedOwner,
  openSlotTomorrow,
  signIn,
  snap,
  verifiedTextNumber,
} from '../support/app.ts';

/**
 * Issue 27 at phone size: a customer texted about a slot asks a question; the opening's row for her says
 * "Asked: …" and leads to the conversation, where the question is unread until the owner opens it.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function ownerWithAnOpenSlot(request: APIRequestContext) {
  const owner = await onboardedOwner(request, newOwner('asked'));
  const headers = { authorization: `Bearer ${owner.token}` };
  const businessNumber = await verifiedTextNumber(request, headers);
  for (const customer of [
    { name: 'Omar Haddad', phone: '+12125550172' },
    { name: 'Lena Park', phone: '+12125550173' },
  ]) {
    const added = await request.post('/api/v1/waitlist', {
      headers,
      data: { ...customer, consentMethod: 'verbal' },
    });
    expect(added.status()).toBe(201);
  }
  const openingId = await openSlotTomorrow(request, headers, { service: 'Haircut', priceCents: 6500 });
  return { owner, businessNumber, openingId };
}

test('a customer who asked: "Asked: …" on the opening, one tap to the conversation', async ({
  page,
  request,
}) => {
  const { owner, businessNumber, openingId } = await ownerWithAnOpenSlot(request);
  // The alert goes out through the outbox; then Omar asks.
  await expect
    .poll(async () => {
      const response = await request.get(
        `/api/v1/dev/phone/messages?number=${encodeURIComponent('+12125550172')}`,
      );
      return JSON.stringify(await response.json());
    })
    .toContain('Haircut');
  const asked = await request.post('/api/v1/dev/phone/reply', {
    data: { from: '+12125550172', to: businessNumber, text: 'what time is it with Maria?' },
  });
  expect(asked.ok(), await asked.text()).toBe(true);

  await signIn(page, owner.token);
  await page.goto(`/openings/${openingId}`);
  const omar = page.getByRole('listitem', { name: 'Omar Haddad' });
  const question = omar.getByRole('link', { name: /Asked: what time is it with Maria\?/ });
  await expect(question).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Lena Park' }).getByText(/Asked/)).toHaveCount(0);
  await snap(page, 'opening-asked-390');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  await question.click();
  await expect(page).toHaveURL(/\/inbox\//);
  await expect(page.getByText('what time is it with Maria?').last()).toBeVisible();
});
