import { calendarMessages as m } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGoogle, startFakeGoogle } from '../../test/fake-google.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { callbackOf, consent as consentTo, googleEnv } from './calendar-oauth.test-helpers.ts';
import { GOOGLE_OURS_PROPERTY } from './google-events.ts';

/**
 * Issue 29, Google Calendar wired end to end against a local server speaking Google's OAuth and Calendar
 * wire format, driven through the official client: consent → callback → confirmed → connected; a deleted appointment
 * proposed once; a claim booked into Google and removed on release; a forged or stale state refused;
 * disconnect revokes the grant at Google.
 */
let t: TestApp;
let fake: FakeGoogle;
const CALLBACK = callbackOf('google');

beforeAll(async () => {
  fake = await startFakeGoogle();
  t = await createTestApp({ env: googleEnv(fake) });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const at = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();
async function aMinuteLater() {
  t.clock.advance(61_000);
  return t.app.calendarWorker.runOnce();
}
/** The owner presses "Connect Google Calendar", consents, and Google sends the browser back to us. */
async function consent(token: string) {
  const start = await call(t, token, 'POST', '/calendar/oauth/google/start');
  const consentUrl = new URL(start.json().url);
  expect(consentUrl.searchParams.get('client_id')).toBe(fake.clientId);
  expect(consentUrl.searchParams.get('access_type')).toBe('offline');
  return consentTo(t, token, 'google', (redirectUri) => fake.authorize(redirectUri));
}

describe('Google Calendar', () => {
  it('connects by consent, proposes a deleted appointment once, books a claim into Google and removes it on release', async () => {
    fake.addEvent({
      id: 'cut-priya',
      summary: 'Cut – Priya',
      start: { dateTime: at(26) },
      end: { dateTime: at(27) },
    });
    const o = await owner(t, { plan: 'growth' });
    const ana = await addCustomer(t, o.token, 8101, { name: 'Ana Ruiz' });
    const landed = await consent(o.token);
    expect(landed.statusCode).toBe(303);
    expect(landed.headers.location).toMatch(/^\/account\?tab=calendar&pending=[\da-f-]{36}$/);
    const list = (await call(t, o.token, 'GET', '/calendar/connections')).json();
    expect(list.available).toContain('google');
    expect(list.data).toMatchObject([{ kind: 'google', writesBookings: true, status: 'ok' }]);

    fake.deleteEvent('cut-priya');
    await aMinuteLater();
    await aMinuteLater();
    const proposals = (await call(t, o.token, 'GET', '/calendar/proposals')).json().data;
    expect(proposals).toMatchObject([{ title: 'Cut – Priya', reason: 'deleted', durationMinutes: 60 }]);

    const opened = await call(t, o.token, 'POST', `/calendar/proposals/${proposals[0].id}/open`);
    expect(opened.statusCode, opened.body).toBe(200);
    const openingId = opened.json().data.openingId as string;
    await receiveText(t, ana.phone, o.number, 'yes');
    expect(await aMinuteLater()).toMatchObject({ booked: 1 });
    const booked = [...fake.events.values()].filter(
      (event) =>
        event.status !== 'cancelled' &&
        event.extendedProperties?.private?.[GOOGLE_OURS_PROPERTY] === openingId,
    );
    expect(booked).toHaveLength(1);
    expect(booked[0]!.summary).toContain('Ana Ruiz');
    // Read back as ours: never proposed.
    await aMinuteLater();
    expect((await call(t, o.token, 'GET', '/calendar/proposals')).json().data).toEqual([]);

    expect((await call(t, o.token, 'POST', `/openings/${openingId}/release`)).statusCode).toBe(200);
    expect(await aMinuteLater()).toMatchObject({ booked: 1 });
    expect(fake.events.get(booked[0]!.id)?.status ?? 'cancelled').toBe('cancelled');
  });

  it('a forged or expired state connects nothing; disconnecting revokes the grant at Google', async () => {
    const o = await owner(t);
    const forged = await t.app.inject({
      method: 'GET',
      url: `/api/v1/calendar/oauth/google/callback?code=${fake.authorize(CALLBACK)}&state=${o.id}.9999999999999.x.bad`,
    });
    expect(forged.headers.location).toBe(
      `/account?tab=calendar&calendarError=${encodeURIComponent(m.oauthExpired)}`,
    );
    const start = await call(t, o.token, 'POST', '/calendar/oauth/google/start');
    const state = new URL(start.json().url).searchParams.get('state')!;
    t.clock.advance(11 * 60_000);
    const stale = await t.app.inject({
      method: 'GET',
      url: `/api/v1/calendar/oauth/google/callback?code=${fake.authorize(CALLBACK)}&state=${encodeURIComponent(state)}`,
    });
    expect(stale.headers.location).toContain('calendarError=');
    const refused = await t.app.inject({
      method: 'GET',
      url: '/api/v1/calendar/oauth/google/callback?error=access_denied',
    });
    expect(refused.headers.location).toContain(encodeURIComponent(m.oauthFailed));
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toEqual([]);

    expect((await consent(o.token)).statusCode).toBe(303);
    const [connection] = (await call(t, o.token, 'GET', '/calendar/connections')).json().data;
    const revokedBefore = fake.revoked.length;
    expect((await call(t, o.token, 'DELETE', `/calendar/connections/${connection.id}`)).statusCode).toBe(200);
    expect(fake.revoked.length).toBe(revokedBefore + 1);
  });
});
