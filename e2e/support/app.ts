import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { daytimeZone } from '../../apps/server/src/test/daytime-zone.mjs';

const screenshotDir = join(import.meta.dirname, '..', 'screenshots');
mkdirSync(screenshotDir, { recursive: true });

/** Saves a full-page screenshot under e2e/screenshots/ (git-ignored) to be looked at, not only asserted. */
export async function snap(page: Page, name: string) {
  // Let entrance animations (modals, toasts) finish, so the picture shows the screen as a person sees it.
  // Endless ones (spinners) are ignored.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity,
      ),
  );
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/**
 * The zone of this run, chosen once so every journey of it agrees: Chicago (the journeys' usual zone) when it
 * is mid-day there, else a real zone where it is now between 10:00 and 15:59, so a journey that opens a slot
 * never meets quiet hours (issue 26), whatever hour the run starts at.
 */
export const journeyZone = daytimeZone(new Date(), 'America/Chicago');

let counter = 0;
export function newOwner(prefix = 'owner') {
  counter += 1;
  return {
    firstName: 'Bella',
    lastName: 'Rossi',
    email: `${prefix}.${Date.now().toString(36)}${counter}@e2e.test`,
    password: 'secret123',
  };
}

interface MailboxEmail {
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** Reads the local provider's mailbox (the same data /dev/mailbox shows), waiting for the outbox to deliver. */
export async function latestEmail(
  request: APIRequestContext,
  to: string,
  matching: RegExp,
): Promise<MailboxEmail> {
  let found: MailboxEmail | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get('/api/v1/dev/mailbox');
        const { emails } = (await response.json()) as { emails: MailboxEmail[] };
        found = emails.find((email) => email.to === to.toLowerCase() && matching.test(email.text));
        return Boolean(found);
      },
      { timeout: 15_000, message: `an email to ${to} matching ${matching}` },
    )
    .toBe(true);
  return found!;
}

export async function verificationCode(request: APIRequestContext, to: string): Promise<string> {
  const email = await latestEmail(request, to, /verification code is \d{6}/);
  return email.text.match(/verification code is (\d{6})/)![1]!;
}

/**
 * Creates an owner through the real API (register → code from the mailbox → verify → business details)
 * and returns the token, for journeys that start from a finished onboarding.
 */
export async function onboardedOwner(
  request: APIRequestContext,
  owner = newOwner(),
  stage: 'registered' | 'verified' | 'onboarded' = 'onboarded',
) {
  // Each owner set up through the API signs up from an address of their own, as real owners do (the e2e
  // server trusts one proxy hop): the per-address throttles (30 verifications per 15 min) hold for the
  // journeys' own sign-ups in the browser, and a long run of API-made owners does not meet them.
  const from = { 'x-forwarded-for': ownerAddress() };
  const registered = await request.post('/api/v1/auth/register', {
    headers: from,
    data: {
      firstName: owner.firstName,
      lastName: owner.lastName,
      email: owner.email,
      password: owner.password,
    },
  });
  expect(registered.status()).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}`, ...from };
  if (stage !== 'registered') {
    const code = await verificationCode(request, owner.email);
    const verified = await request.post('/api/v1/auth/verify-account', {
      headers,
      data: { verificationCode: code },
    });
    expect(verified.ok()).toBe(true);
  }
  if (stage === 'onboarded') {
    const business = await request.post('/api/v1/auth/business-verification', {
      headers,
      data: { businessName: 'Bella Salon', businessPhone: '5551234567' },
    });
    expect(business.ok()).toBe(true);
    const zone = await request.put('/api/v1/settings/time-zone', {
      headers,
      data: { timeZone: journeyZone },
    });
    expect(zone.ok()).toBe(true);
  }
  return { ...owner, token };
}

/** An address of the benchmarking range 198.18.0.0/15 (never a real client) for each API-made owner of this run. */
let addresses = Math.floor(Math.random() * 60_000);
function ownerAddress() {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250) % 250}.${(addresses % 250) + 1}`;
}

/** Signs the page in by putting the token where the app keeps it (SPEC §3: localStorage `token`). */
export async function signIn(page: Page, token: string) {
  await page.goto('/login');
  await page.evaluate((value) => localStorage.setItem('token', value), token);
}

/**
 * Closes a second tab (the phone simulator, an invoice) without waiting for Chromium to confirm it. A
 * close that races a navigation commit, such as the simulator's Send redirect, is acknowledged and then
 * dropped by Chromium (crbug.com/536385539, playwright#42366), and a plain page.close() waits for ever; it
 * hung a CI run for the whole test timeout. The context closes any tab left over when the test ends.
 */
export async function closeTab(page: Page) {
  await page.close({ runBeforeUnload: true });
}

/** The owner's text number, requested and verified through the API (the local phone's flow); returns it. */
export async function verifiedTextNumber(request: APIRequestContext, headers: Record<string, string>) {
  let number = '';
  for (const step of ['request', 'verify']) {
    const answer = await request.post(`/api/v1/phone-number/${step}`, { headers, data: {} });
    expect(answer.ok(), await answer.text()).toBe(true);
    number = (await answer.json()).data.number as string;
  }
  return number;
}

/** A slot tomorrow at 15:00 (the journey's zone), texted to everyone at once; returns the opening's id. */
export async function openSlotTomorrow(
  request: APIRequestContext,
  headers: Record<string, string>,
  slot: { service: string; priceCents: number; durationMinutes?: number },
) {
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const opened = await request.post('/api/v1/openings', {
    headers,
    data: { startsAt: `${tomorrow}T15:00`, durationMinutes: 45, mode: 'all', ...slot },
  });
  expect(opened.status(), await opened.text()).toBe(201);
  return (await opened.json()).data.id as string;
}
