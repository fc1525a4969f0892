import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import {
  newOwner,
  onboardedOwner,
  openSlotTomorrow,
  signIn,
  snap,
  verifiedTextNumber,
} from '../support/app.ts';

/**
 * Issue 15's "Done when" at phone size: a customer joins by the public page and confirms by text; an
 * alert goes out; her "Yes please!" wins the slot and the others are told it is taken; a free-text reply
 * reaches the owner's inbox (badge in the header) and is answered from it, and the customer's phone shows
 * the answer.
 */
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

async function textsTo(request: APIRequestContext, number: string) {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  const json = (await response.json()) as {
    messages?: { direction: string; body: string; fromNumber?: string; from?: string }[];
    data?: { direction: string; body: string; fromNumber?: string; from?: string }[];
  };
  return (json.messages ?? json.data ?? []).filter((message) => message.direction === 'out');
}

/** The customer answers from their phone: the local phone's inbound path, to the business's number. */
async function replyFromPhone(request: APIRequestContext, business: string, phone: string, text: string) {
  const sent = await request.post('/api/v1/dev/phone/reply', { data: { from: phone, to: business, text } });
  expect(sent.ok(), await sent.text()).toBe(true);
}

/** The owner, with a verified text number and two customers on the waitlist. */
async function ownerWithANumberAndTwoCustomers(request: APIRequestContext) {
  const owner = await onboardedOwner(request, newOwner('inbox'));
  const headers = { authorization: `Bearer ${owner.token}` };
  const businessNumber = await verifiedTextNumber(request, headers);
  const customers = [
    { name: 'Omar Haddad', phone: '+12125550162' },
    { name: 'Lena Park', phone: '+12125550163' },
  ];
  for (const customer of customers) {
    const added = await request.post('/api/v1/waitlist', {
      headers,
      data: { ...customer, consentMethod: 'verbal' },
    });
    expect(added.status()).toBe(201);
  }
  return { owner, headers, businessNumber };
}

/** Priya joins by herself: the owner's link, the public page on her phone, then YES to the text. */
async function priyaJoinsByThePublicPage(
  page: Page,
  request: APIRequestContext,
  headers: Record<string, string>,
  businessNumber: string,
) {
  const link = (await (await request.get('/api/v1/join-link', { headers })).json()).data as {
    slug: string;
    url: string;
  };
  await page.goto(`/join/${link.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Bella Salon' })).toBeVisible();
  // Fast on a phone: no account, waitlist, billing or admin code; the figure goes to the log.
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.js'))
      .map((entry) => ({ name: entry.name, bytes: (entry as PerformanceResourceTiming).encodedBodySize })),
  );
  const joinKb = scripts.reduce((sum, script) => sum + script.bytes, 0) / 1024;
  console.log(`join page JavaScript: ${scripts.length} files, ${joinKb.toFixed(1)} KB as sent`);
  expect(scripts.map((script) => script.name).join(' ')).not.toMatch(/account|admin|billing|waitlist-page/);
  // The shared chunks /login loads too (React, the router, zod, phone numbers), ~5 KB of its own, and
  // i18next with react-i18next and both languages' words (issue 28: 162.2 KB before them, 178.3 KB with
  // them; decision 0016 says why the budget grew by 15 KB).
  expect(joinKb).toBeLessThan(185);
  await snap(page, 'join-page-390');
  await page.getByLabel('Your name').fill('Priya Shah');
  await page.getByLabel('Mobile number').fill('(212) 555-0161');
  await page.getByLabel(/I agree to receive texts from Bella Salon/).check();
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByRole('status')).toContainText('Check your texts: reply YES');
  await snap(page, 'join-done-390');
  await expect
    .poll(async () => (await textsTo(request, '+12125550161')).at(-1)?.body ?? '')
    .toMatch(/Reply YES to join the waitlist at Bella Salon/);
  await replyFromPhone(request, businessNumber, '+12125550161', 'YES');
  await expect
    .poll(async () => (await textsTo(request, '+12125550161')).at(-1)?.body ?? '')
    .toMatch(/You're on the waitlist/);
  await page.goto(`/join/${link.slug}/poster`);
  await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
  await snap(page, 'join-poster-390');
  return link;
}

/** The header's inbox badge, then the conversation with the alert it answered, answered from there. */
async function answerOmarFromTheInbox(page: Page, request: APIRequestContext) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByTestId('inbox-badge')).toHaveText(/1/);
  await menu.getByRole('link', { name: /Inbox/ }).click();
  await expect(page).toHaveURL(/\/inbox$/);
  const conversations = page.getByRole('navigation', { name: 'Conversations' });
  await expect(conversations.getByRole('link', { name: /Omar Haddad/ })).toBeVisible();
  await snap(page, 'inbox-list-390');
  await conversations.getByRole('link', { name: /Omar Haddad/ }).click();
  await expect(page).toHaveURL(/\/inbox\/[\w-]+$/);
  await expect(page.getByText(/About: Color/)).toBeVisible();
  await page.getByLabel('Your reply').fill('Yes, with Maria. Want the next one?');
  // On a touch screen Enter makes a new line (issue 27: no Shift+Enter there); the button sends.
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expect(page.getByRole('list', { name: 'Texts with Omar Haddad' })).toContainText(
    'Yes, with Maria. Want the next one?',
  );
  await snap(page, 'inbox-thread-390');
  await expect
    .poll(async () => (await textsTo(request, '+12125550162')).at(-1)?.body ?? '')
    .toBe('Yes, with Maria. Want the next one?');
  // Read: the badge is gone.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main menu' }).getByTestId('inbox-badge')).toHaveCount(0);
  await page.getByRole('button', { name: 'Open menu' }).click();
}

test('"Yes please!" wins, the others are told, a question reaches the inbox and is answered', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const { owner, headers, businessNumber } = await ownerWithANumberAndTwoCustomers(request);
  const link = await priyaJoinsByThePublicPage(page, request, headers, businessNumber);
  const openingId = await openSlotTomorrow(request, headers, { service: 'Color', priceCents: 9000 });
  await signIn(page, owner.token);
  await page.goto('/waitlist');
  await expect(page.getByRole('listitem', { name: /Priya Shah/ })).toBeVisible();
  await expect(page.getByTestId('join-link-url')).toHaveText(link.url);

  // Omar asks a question first: it is not a claim.
  await replyFromPhone(request, businessNumber, '+12125550162', 'Is that with Maria?');
  await expect.poll(async () => (await textsTo(request, '+12125550162')).length).toBe(2);
  expect((await textsTo(request, '+12125550162'))[1]!.body).toMatch(/Thanks for your message/);

  // Priya claims it the way people type.
  await replyFromPhone(request, businessNumber, '+12125550161', 'Yes please!');
  await expect
    .poll(async () => (await textsTo(request, '+12125550161')).at(-1)?.body ?? '')
    .toMatch(/^You got it, Priya!/);
  // Everyone else who was texted is told, once.
  await expect
    .poll(async () => (await textsTo(request, '+12125550163')).at(-1)?.body ?? '')
    .toMatch(/^Sorry Lena.*has already been filled/);

  // The opening says what happened to each customer.
  await page.goto(`/openings/${openingId}`);
  await expect(page.getByTestId('opening-winner')).toContainText('Priya Shah');
  const offers = page.getByRole('listitem');
  await expect(offers.filter({ hasText: 'Priya Shah' })).toContainText('Claimed');
  await expect(offers.filter({ hasText: 'Lena Park' })).toContainText('Told it’s filled');
  await snap(page, 'replies-opening-outcomes-390');

  await answerOmarFromTheInbox(page, request);

  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, 'inbox-thread-1280');
  await page.goto('/waitlist');
  await expect(page.getByTestId('join-link-url')).toBeVisible();
  await snap(page, 'waitlist-join-card-1280');
  await page.goto(`/join/${link.slug}`);
  await snap(page, 'join-page-1280');
});
