import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { calendarKindLabels, calendarMessages } from '../../packages/contract/src/calendar.messages.ts';
import { UNNAMED_SERVICE } from '../../packages/contract/src/offers.messages.ts';
import { journeyZone, newOwner, onboardedOwner, signIn, snap, verifiedTextNumber } from '../support/app.ts';

/**
 * Issue 29's journey on a phone (390×844): an owner with a text number and two waiting customers connects the
 * local calendar from the Day page, adds "Cut – Priya" tomorrow at 3:00 pm in /dev/calendar (the form a
 * person uses), has the app check it, deletes it there and has the app check again. The inbox then asks
 * "… 3:00 pm Cut – Priya cancelled — text the waitlist?"; one tap opens the slot, texts both customers and
 * puts the opening on the Openings page and the Day page.
 */
test.use({
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  locale: 'en-US',
  timezoneId: journeyZone,
});

const PRIYA = '+12125550191';
const MARCO = '+12125550192';
const TITLE = 'Cut – Priya';

/** Tomorrow in the business's zone, as YYYY-MM-DD, and its short weekday ("Sat"), as the card writes it. */
function tomorrowInZone() {
  const instant = new Date(Date.now() + 86_400_000);
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: journeyZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    weekday: 'short',
  }).formatToParts(instant);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)!.value;
  return { date: `${part('year')}-${part('month')}-${part('day')}`, weekday: part('weekday') };
}

async function textsTo(request: APIRequestContext, number: string) {
  const response = await request.get(`/api/v1/dev/phone/messages?number=${encodeURIComponent(number)}`);
  const json = (await response.json()) as {
    messages?: { direction: string; body: string }[];
    data?: { direction: string; body: string }[];
  };
  return (json.messages ?? json.data ?? [])
    .filter((message) => message.direction === 'out')
    .map((message) => message.body);
}

async function expectNoSideways(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(390);
}

/** An owner with a verified text number and two customers waiting (added through the API). */
async function ownerWithWaitlist(request: APIRequestContext) {
  const owner = await onboardedOwner(request, newOwner('calendar'));
  const headers = { authorization: `Bearer ${owner.token}` };
  await verifiedTextNumber(request, headers);
  for (const [name, phone] of [
    ['Priya Shah', PRIYA],
    ['Marco Diaz', MARCO],
  ] as const) {
    const added = await request.post('/api/v1/waitlist', {
      headers,
      data: { name, phone, consentMethod: 'verbal' },
    });
    expect(added.status(), await added.text()).toBe(201);
  }
  return { owner, headers };
}

/** From the Day page's empty state to Settings' Calendar page, and the local calendar connected. */
async function connectLocalCalendar(page: Page) {
  await page.goto('/day');
  await expect(page.getByRole('heading', { name: 'No calendar connected' })).toBeVisible();
  await page.getByRole('link', { name: 'Connect a calendar' }).click();
  await expect(page).toHaveURL(/\/settings\/calendar$/);
  await page.getByLabel('Kind of calendar').selectOption({ label: calendarKindLabels.local });
  await page.getByRole('button', { name: 'Use the local calendar' }).click();
  const toast = page.getByRole('status').filter({ hasText: calendarMessages.connected });
  await expect(toast).toBeVisible();
  // Read, then closed, as a person would: the picture is of the tab, not of the toast over it.
  await toast.getByRole('button', { name: 'Close notification' }).click();
  await expect(toast).toHaveCount(0);
  const connection = page.getByRole('list', { name: 'Connected calendars' }).getByRole('listitem').first();
  await expect(connection.getByText('Connected', { exact: true })).toBeVisible();
  await expect(connection).toContainText(calendarKindLabels.local);
  // The next step, said where the owner looks: edit it at /dev/calendar; and it is not offered twice.
  await expect(connection.getByRole('link', { name: '/dev/calendar' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Connect another calendar' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use the local calendar' })).toHaveCount(0);
  await expectNoSideways(page);
  await snap(page, 'calendar-tab-connected-390');
  return connection;
}

/** In the local calendar, as the owner would in a calendar app. */
async function addAppointment(calendar: Page, email: string, date: string) {
  await calendar.goto(`/dev/calendar?owner=${encodeURIComponent(email)}`);
  await expect(calendar.getByRole('heading', { level: 2, name: 'Bella Salon' })).toBeVisible();
  const add = calendar.getByRole('region', { name: 'Add an event' });
  await add.getByLabel('Title').fill(TITLE);
  await add.getByLabel('Date').fill(date);
  await add.getByLabel('Start').fill('15:00');
  await add.getByLabel('Minutes').fill('30');
  await add.getByLabel('Attendee').fill('Priya');
  await add.getByRole('button', { name: 'Add event' }).click();
  const event = calendar
    .getByRole('list', { name: 'Events' })
    .getByRole('listitem')
    .filter({ hasText: TITLE });
  await expect(event).toHaveCount(1);
  await expect(event).toContainText('30 min');
  await expect(event).toContainText('With Priya');
  await expectNoSideways(calendar);
  await snap(calendar, 'dev-calendar-390');
  return event;
}

/** "Check now": the app reads the calendar at once (the answer waited for, as a toast can outlive a check). */
async function checkNow(page: Page, connection: ReturnType<Page['locator']>) {
  const answer = page.waitForResponse((response) =>
    /\/api\/v1\/calendar\/connections\/[^/]+\/sync$/.test(response.url()),
  );
  await connection.getByRole('button', { name: 'Check now' }).click();
  expect((await answer).status()).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: calendarMessages.synced }).first()).toBeVisible();
}

test('a cancelled appointment in the connected calendar becomes one tap that texts the waitlist', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const { owner, headers } = await ownerWithWaitlist(request);
  const tomorrow = tomorrowInZone();
  await signIn(page, owner.token);

  const connection = await connectLocalCalendar(page);

  // The appointment is added in the calendar, and the app reads it.
  const calendar = await page.context().newPage();
  const event = await addAppointment(calendar, owner.email, tomorrow.date);
  await page.bringToFront();
  await checkNow(page, connection);
  const day = await request.get(`/api/v1/calendar/day?date=${tomorrow.date}`, { headers });
  const seen = (await day.json()).data.events as { title: string }[];
  expect(seen.map((seenEvent) => seenEvent.title)).toEqual([TITLE]);

  // It is deleted there, and the next check finds the cancellation.
  await calendar.bringToFront();
  await event.getByRole('button', { name: 'Delete' }).click();
  await expect(calendar.getByText(TITLE)).toHaveCount(0);
  await calendar.close();
  await page.bringToFront();
  await checkNow(page, connection);

  // The inbox asks, in the business's time: tomorrow, so with its weekday.
  await page.goto('/inbox');
  const cards = page.getByRole('region', { name: 'Cancellations from your calendar' });
  const expected = calendarMessages.proposalTitle(`${tomorrow.weekday} 3:00 pm`, TITLE);
  const card = cards.getByRole('listitem', { name: TITLE });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(expected);
  await expectNoSideways(page);
  await snap(page, 'calendar-inbox-card-390');

  const waitingProposals = async () =>
    (
      (await (await request.get('/api/v1/calendar/proposals', { headers })).json()).data as { id: string }[]
    ).map((waiting) => waiting.id);
  const [proposalId] = await waitingProposals();
  expect(proposalId).toBeTruthy();
  // "Text the waitlist" first shows who gets the text (issue 39), as a slot typed by hand; nothing is sent yet.
  await card.getByRole('button', { name: 'Text the waitlist' }).click();
  await expect(card.getByTestId('preview-headline')).toBeVisible();
  expect(await waitingProposals()).toEqual([proposalId]);
  const opened = page.waitForResponse((response) => response.url().endsWith(`/proposals/${proposalId}/open`));
  await card.getByRole('button', { name: 'Send cancellation alert' }).click();
  const proposal = (await (await opened).json()).data as { status: string; openingId: string | null };
  expect(proposal.status).toBe('opened');
  await expect(page.getByRole('status').filter({ hasText: calendarMessages.proposalOpened })).toBeVisible();
  await expect(cards).toHaveCount(0);
  expect(await waitingProposals()).toEqual([]);

  // The opening, on the Openings page: no rule named a service, so it is the neutral word, never the event's
  // title (issue 38: whoever can put an event in the calendar would write the customers' text).
  await page.goto('/openings');
  const opening = page.getByRole('region', { name: 'Recent openings' }).getByRole('listitem', {
    name: new RegExp(`^${UNNAMED_SERVICE}, .*3:00 pm`),
  });
  await expect(opening).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Cancellations from your calendar' })).toHaveCount(0);
  const listed = await request.get('/api/v1/openings', { headers });
  const openings = (await listed.json()).data as { id: string; service: string }[];
  expect(openings.map((one) => [one.id, one.service])).toEqual([[proposal.openingId, UNNAMED_SERVICE]]);

  // Both customers are texted the slot.
  for (const phone of [PRIYA, MARCO]) {
    await expect
      .poll(async () => (await textsTo(request, phone)).join('\n'), { timeout: 15_000 })
      .toMatch(/a spot just opened at Bella Salon: .+ at 3:00 PM/);
    expect((await textsTo(request, phone)).join('\n')).not.toContain(TITLE);
  }

  // The Day page shows it at 3:00 pm tomorrow; a week on a desktop.
  await page.goto(`/day?date=${tomorrow.date}`);
  const block = page.getByTestId('day-opening');
  await expect(block).toHaveCount(1);
  await expect(block).toContainText(UNNAMED_SERVICE);
  // Half an hour is one line on a phone: the start and the state shown, the whole slot in its title.
  await expect(block).toHaveAttribute('title', `${UNNAMED_SERVICE}, 3:00 pm–3:30 pm, Open`);
  await expect(block).toHaveText(new RegExp(`^${UNNAMED_SERVICE}\\s+3:00 pm\\s*· Open$`), {
    useInnerText: true,
  });
  await expect(page.getByTestId('day-event')).toHaveCount(0);
  await expectNoSideways(page);
  await snap(page, 'calendar-day-390');
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole('heading', { level: 1, name: 'Week' })).toBeVisible();
  await expect(page.getByTestId('day-opening')).toHaveCount(1);
  await snap(page, 'calendar-week-1280');
  await page.goto('/account?tab=calendar');
  await expect(page.getByRole('button', { name: 'Check now' })).toBeVisible();
  await snap(page, 'calendar-tab-1280');
});
