import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { closeTab, newOwner, onboardedOwner, signIn, snap } from '../support/app.ts';

interface PhoneMessage {
  direction: string;
  body: string;
  from?: string;
  fromNumber?: string;
}

/** What a customer's phone has received, read from the local phone provider (the data /dev/phone shows). */
async function phoneInbox(request: APIRequestContext, number: string): Promise<PhoneMessage[]> {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  expect(response.ok()).toBe(true);
  const json = (await response.json()) as { messages?: PhoneMessage[]; data?: PhoneMessage[] };
  return json.messages ?? json.data ?? [];
}

async function expectText(request: APIRequestContext, number: string, matching: RegExp) {
  await expect
    .poll(async () => (await phoneInbox(request, number)).some((message) => matching.test(message.body)), {
      timeout: 15_000,
      message: `a text to ${number} matching ${matching}`,
    })
    .toBe(true);
}

async function addCustomer(page: Page, name: string, phone: string) {
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Mobile phone').fill(phone);
  await dialog.getByLabel('How did they agree to texts?').selectOption('verbal');
  await dialog.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(dialog).toHaveCount(0);
}

/**
 * Issue 5's journey: a verified text number, three customers, a cancelled slot texted to them, one replies
 * YES from the phone simulator and wins, a later YES is told the slot is filled, and STOP opts a customer out.
 */
test('an owner fills a cancelled slot from the waitlist by text', async ({ page, request }) => {
  test.setTimeout(120_000);
  const owner = await onboardedOwner(request, newOwner('waitlist'));
  await signIn(page, owner.token);

  // The dedicated number, from the Billing tab: requested and, on the local phone, verified at once.
  await page.goto('/account?tab=billing');
  await page.getByRole('button', { name: 'Request a number' }).click();
  const numberCard = page.getByTestId('phone-number-section');
  await expect(numberCard.getByText('Verified', { exact: true })).toBeVisible();
  await expect(numberCard.getByRole('button', { name: 'Verify' })).toHaveCount(0);
  await expect(page.getByText(/verified/i).first()).toBeVisible();
  await snap(page, 'billing-text-number');

  // Three customers, phones typed any which way.
  await page.goto('/waitlist');
  await expect(page.getByRole('heading', { name: 'Your waitlist is empty' })).toBeVisible();
  await addCustomer(page, 'Ana Ruiz', '212-555-0101');
  await addCustomer(page, 'Ben Cole', '(212) 555 0102');
  await addCustomer(page, 'Cleo Park', '+1 212 555 0103');
  await expect(page.getByText(/3 of 25/)).toBeVisible();
  await snap(page, 'waitlist');

  // The same phone twice is refused with a clear message.
  await page.getByRole('button', { name: 'Add customer' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Ana again');
  await dialog.getByLabel('Mobile phone').fill('2125550101');
  await dialog.getByLabel('How did they agree to texts?').selectOption('verbal');
  await dialog.getByRole('button', { name: 'Add to waitlist' }).click();
  await expect(dialog.getByRole('alert').first()).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Open tomorrow's 15:30 slot: one alert to all three.
  await page.goto('/openings');
  const form = page.getByRole('form', { name: 'Open a slot' });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await form.getByLabel('Date').fill(tomorrow);
  await form.getByLabel('Time', { exact: true }).fill('15:30');
  await form.getByLabel('Service').fill('Haircut');
  await form.getByLabel(/Price/).fill('45');
  await form.getByRole('radio', { name: /Everyone at once/ }).check();
  await snap(page, 'open-slot');
  await form.getByRole('button', { name: 'See who gets the text' }).click();
  // The plan before anything is sent: all three, now.
  await expect(page.getByTestId('preview-headline')).toContainText('Text 3 customers now');
  await snap(page, 'open-slot-preview');
  await page.getByRole('button', { name: 'Send cancellation alert' }).click();
  await expect(page).toHaveURL(/\/openings\/[\w-]+$/);
  for (const number of ['+12125550101', '+12125550102', '+12125550103']) {
    await expectText(request, number, /Haircut|slot|YES/i);
  }
  const business = (await phoneInbox(request, '+12125550102')).find((message) => message.direction === 'out');
  expect(business).toBeTruthy();

  // Ben replies YES from the phone simulator page: the same inbound path a real reply takes.
  const simulator = await page.context().newPage();
  await simulator.goto('/dev/phone');
  await snap(simulator, 'dev-phone');
  await simulator
    .getByRole('link', { name: /212.*555.*0102|\+12125550102/ })
    .first()
    .click();
  await simulator.getByLabel('Reply').fill(' Yes! ');
  await simulator.getByRole('button', { name: 'Send' }).click();
  await expectText(request, '+12125550102', /booked|confirmed|see you/i);
  await snap(simulator, 'dev-phone-thread');
  await closeTab(simulator);

  // The opening shows as filled, won by Ben.
  await expect(page.getByTestId('opening-winner')).toContainText('Ben Cole', { timeout: 15_000 });
  await snap(page, 'opening-filled');

  // A later YES from Ana is told the slot is already filled; STOP from Cleo opts her out with one confirmation.
  const reply = (from: string, text: string) =>
    request.post('/api/v1/dev/phone/reply', {
      data: { from, to: business!.fromNumber ?? business!.from, text },
    });
  expect((await reply('+12125550101', 'yes')).ok()).toBe(true);
  await expectText(request, '+12125550101', /already (been )?filled|filled/i);
  expect((await reply('+12125550103', 'STOP')).ok()).toBe(true);
  await expectText(request, '+12125550103', /unsubscribed|opted out|no more/i);

  await page.goto('/waitlist');
  await page.getByRole('link', { name: 'Cleo Park' }).click();
  await expect(page.getByText(/opted out/i).first()).toBeVisible();
  await snap(page, 'conversation-opted-out');
  await page.goto('/waitlist');
  await page.getByRole('link', { name: 'Ben Cole' }).click();
  await expect(page.getByText('Yes!').first()).toBeVisible();
  await snap(page, 'conversation');
});

/** Issue 27: on a 390 px phone, a removal is undone from its toast, and a removed row can be restored. */
test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('an owner removes a customer by mistake and undoes it', async ({ page, request }) => {
    const owner = await onboardedOwner(request, newOwner('undo'));
    await signIn(page, owner.token);
    await page.goto('/waitlist');
    await addCustomer(page, 'Ana Ruiz', '212-555-0111');
    await addCustomer(page, 'Marcus Lee', '212-555-0112');
    await addCustomer(page, 'Zoe Kim', '212-555-0113');
    const list = page.getByRole('list', { name: 'Customers in waitlist order' });
    const names = list.getByRole('listitem');
    await expect(names).toHaveCount(3);

    await page.getByRole('button', { name: 'Remove Marcus Lee' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Marcus Lee removed' });
    await expect(toast).toBeVisible();
    await expect(names).toHaveCount(2);
    const undo = toast.getByRole('button', { name: 'Undo removing Marcus Lee' });
    // Within the phone's width, and big enough for a thumb.
    const box = await undo.boundingBox();
    expect(box && box.x + box.width <= 390 && box.height >= 36).toBe(true);
    await snap(page, 'waitlist-undo-toast-390');
    await undo.click();

    const back = page.getByTestId('toast').filter({ hasText: 'Marcus Lee is back on the waitlist' });
    await expect(back).toBeVisible();
    // Back at his old place, between the same neighbours.
    await expect(names).toHaveText([/Ana Ruiz/, /Marcus Lee/, /Zoe Kim/]);
    await expect(list.getByRole('listitem', { name: 'Marcus Lee' })).toContainText('2');
    // The owner closes that toast, so the next restore's toast is the only one.
    await back.getByRole('button', { name: 'Close notification' }).click();
    await expect(back).toHaveCount(0);

    // Removed again, and restored later from the Removed filter.
    await page.getByRole('button', { name: 'Remove Marcus Lee' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(names).toHaveCount(2);
    await page.getByRole('button', { name: 'Removed', exact: true }).click();
    await page.getByRole('button', { name: 'Restore Marcus Lee' }).click();
    await expect(page.getByText('Marcus Lee is back on the waitlist')).toBeVisible();
    await page.getByRole('button', { name: 'Active', exact: true }).click();
    await expect(names).toHaveText([/Ana Ruiz/, /Marcus Lee/, /Zoe Kim/]);
    await snap(page, 'waitlist-restored-390');
  });
});
