import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { journeyZone, newOwner, onboardedOwner, signIn, snap, verifiedTextNumber } from '../support/app.ts';

/**
 * Issue 39's second walk, on a 390 px phone: a slot sent from the form opens its page at the top; the owner
 * releases a winner who cannot come and the winner is told, with the owner's own line; a calendar
 * cancellation opens through the "who gets the text" preview with the stylist and price the owner's rule
 * and the title give, the customer who asked for that stylist wins it, and the day view names her whole.
 */
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: 'en-US',
  timezoneId: journeyZone,
});

type Headers = Record<string, string>;

async function textsTo(request: APIRequestContext, number: string): Promise<string[]> {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  const json = (await response.json()) as { data?: { direction: string; body: string }[] };
  return (json.data ?? []).filter((message) => message.direction === 'out').map((message) => message.body);
}

async function expectNoSideways(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(390);
}

async function addCustomer(request: APIRequestContext, headers: Headers, data: Record<string, unknown>) {
  const added = await request.post('/api/v1/waitlist', {
    headers,
    data: { consentMethod: 'verbal', ...data },
  });
  expect(added.status(), await added.text()).toBe(201);
  return (await added.json()).data as { id: string };
}

async function ownerWithNumber(request: APIRequestContext, prefix: string) {
  const owner = await onboardedOwner(request, newOwner(prefix));
  const headers = { authorization: `Bearer ${owner.token}` };
  const number = await verifiedTextNumber(request, headers);
  return { owner, headers, number };
}

const AVA = '+12125550181';
const ISABELLA = '+12125550182';
// The second journey's customers: numbers of their own, as the server (and its phone) is shared by the run.
const CAMILA = '+12125550183';
const LEO = '+12125550184';

test('a winner released by the owner is told, and the slot goes to the next', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { owner, headers, number } = await ownerWithNumber(request, 'release');
  await addCustomer(request, headers, { name: 'Ava Stone', phone: AVA });
  await addCustomer(request, headers, { name: 'Isabella Ruiz', phone: ISABELLA });
  await signIn(page, owner.token);

  // The slot, from the form at the foot of a scrolled page: its own page then opens at its top.
  await page.goto('/openings');
  const form = page.getByRole('form', { name: 'Open a slot' });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('14:00');
  await form.getByLabel('Service').fill('Color');
  await form.getByLabel(/Price/).fill('85');
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  const send = page.getByRole('button', { name: 'Send cancellation alert' });
  await send.scrollIntoViewIfNeeded();
  await send.click();
  await expect(page).toHaveURL(/\/openings\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  // Ava says YES and is booked.
  await expect.poll(async () => (await textsTo(request, AVA)).length, { timeout: 15_000 }).toBe(1);
  const yes = await request.post('/api/v1/dev/phone/reply', { data: { from: AVA, to: number, text: 'YES' } });
  expect(yes.ok(), await yes.text()).toBe(true);
  await expect
    .poll(async () => (await textsTo(request, AVA)).join('\n'), { timeout: 15_000 })
    .toMatch(/You got it, Ava!/);
  await page.reload();

  // The owner releases her: the dialog shows the words Ava will get and takes a line of the owner's own.
  await page.getByRole('button', { name: /Winner can’t come/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Offer the slot to the next customer?' });
  const words = dialog.getByLabel('The text to the winner');
  await expect(words).toContainText('Ava');
  await dialog.getByLabel('Add a line (optional)').fill('Sorry, the chair broke.');
  await expect(words).toContainText('Sorry, the chair broke.');
  await expectNoSideways(page);
  await snap(page, 'release-dialog-390');
  await dialog.getByRole('button', { name: 'Text Ava Stone and offer to the next' }).click();
  await expect(dialog).toHaveCount(0);

  // Ava is told, in those words; Isabella is offered the slot.
  await expect
    .poll(async () => (await textsTo(request, AVA)).at(-1) ?? '', { timeout: 15_000 })
    .toContain('Sorry, the chair broke.');
  await expect
    .poll(async () => (await textsTo(request, ISABELLA)).join('\n'), { timeout: 15_000 })
    .toMatch(/2:00 PM/);
  await snap(page, 'release-done-390');
});

/** A connected local calendar with one rule: "cut" is the Women's cut. Returns the connection's id. */
async function calendarWithRule(request: APIRequestContext, headers: Headers, serviceId: string) {
  const connected = await request.post('/api/v1/calendar/connections', { headers, data: { kind: 'local' } });
  expect(connected.status(), await connected.text()).toBe(201);
  const id = (await connected.json()).data.id as string;
  const rules = await request.patch(`/api/v1/calendar/connections/${id}`, {
    headers,
    data: { rules: [{ contains: 'cut', serviceId }] },
  });
  expect(rules.ok(), await rules.text()).toBe(true);
  return id;
}

test('a calendar cancellation opens through the preview with its stylist and price', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { owner, headers, number } = await ownerWithNumber(request, 'proposal');
  const me = (await (await request.get('/api/v1/auth/me', { headers })).json()) as { data: { id: string } };
  const userId = me.data.id;
  const service = await request.post('/api/v1/services', {
    headers,
    data: { name: 'Women’s cut', durationMinutes: 60, priceCents: 6500 },
  });
  expect(service.status(), await service.text()).toBe(201);
  const serviceId = (await service.json()).data.id as string;
  const jess = (await (await request.post('/api/v1/staff', { headers, data: { name: 'Jess' } })).json()).data
    .id;
  const priya = (await (await request.post('/api/v1/staff', { headers, data: { name: 'Priya' } })).json())
    .data.id;
  await addCustomer(request, headers, { name: 'Camila Reyes-Montenegro', phone: CAMILA, staffId: jess });
  await addCustomer(request, headers, { name: 'Leo Park', phone: LEO, staffId: priya });
  const connection = await calendarWithRule(request, headers, serviceId);
  const sync = async () => {
    const read = await request.post(`/api/v1/calendar/connections/${connection}/sync`, { headers });
    expect(read.ok(), await read.text()).toBe(true);
  };

  // "Cut – Jess" tomorrow at 2:00 pm is in the calendar, then cancelled there.
  const tomorrow = new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA', { timeZone: journeyZone });
  const added = await request.post('/api/v1/dev/calendar/events', {
    data: { userId, title: 'Cut – Jess', startsAt: `${tomorrow}T14:00`, durationMinutes: 60 },
  });
  expect(added.status(), await added.text()).toBe(201);
  const uid = (await added.json()).data.uid as string;
  await sync();
  const removed = await request.delete(`/api/v1/dev/calendar/events/${userId}/${encodeURIComponent(uid)}`);
  expect(removed.ok(), await removed.text()).toBe(true);
  await sync();

  // On the phone: the card's "Text the waitlist" shows who gets the text, with the stylist and the price.
  await signIn(page, owner.token);
  await page.goto('/inbox');
  const card = page
    .getByRole('region', { name: 'Cancellations from your calendar' })
    .getByRole('listitem', { name: 'Cut – Jess' });
  await expect(card).toHaveCount(1);
  await card.getByRole('button', { name: 'Text the waitlist' }).click();
  const headline = card.getByTestId('preview-headline');
  await expect(headline).toBeVisible();
  await expect(card).toContainText('Women’s cut with Jess · $65');
  await expect(card).toContainText('Camila Reyes-Montenegro');
  expect(await textsTo(request, CAMILA)).toEqual([]);
  await expectNoSideways(page);
  await snap(page, 'calendar-proposal-preview-390');
  await card.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page.getByRole('region', { name: 'Cancellations from your calendar' })).toHaveCount(0);

  // Camila, who asked for Jess, is texted and takes it; Leo (Priya's) is not texted.
  await expect
    .poll(async () => (await textsTo(request, CAMILA)).join('\n'), { timeout: 15_000 })
    .toMatch(/2:00 PM \(Women’s cut\)/);
  expect(await textsTo(request, LEO)).toEqual([]);
  const yes = await request.post('/api/v1/dev/phone/reply', {
    data: { from: CAMILA, to: number, text: 'YES' },
  });
  expect(yes.ok(), await yes.text()).toBe(true);
  const openings = (await (await request.get('/api/v1/openings', { headers })).json()).data as {
    staffName: string | null;
    priceCents: number | null;
    status: string;
  }[];
  expect(openings).toMatchObject([{ staffName: 'Jess', priceCents: 6500 }]);
  await expect
    .poll(async () => (await (await request.get('/api/v1/dashboard/earnings', { headers })).json()).data)
    .toMatchObject({ revenueRecoveredCents: 6500 });

  // The day view names who claimed it, whole, on the phone.
  await page.goto(`/day?date=${tomorrow}`);
  const state = page.getByTestId('day-opening-state');
  await expect(state).toHaveText(/Claimed by Camila R\.$/);
  await expect(page.getByTestId('day-opening')).toHaveAttribute(
    'title',
    /Claimed by Camila Reyes-Montenegro$/,
  );
  // Drawn whole: the words are no wider than the line they sit on.
  const cut = await state.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    return range.getBoundingClientRect().right > element.getBoundingClientRect().right + 1;
  });
  expect(cut, 'the claimed name is cut off').toBe(false);
  await expectNoSideways(page);
  await snap(page, 'calendar-day-claimed-390');
});
