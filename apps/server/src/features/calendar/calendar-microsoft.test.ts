import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGraph, startFakeGraph } from '../../test/fake-graph.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import {
  callbackOf,
  graphEnv,
  pendingIdOf,
  returnFromConsent,
  startConsent,
} from './calendar-oauth.test-helpers.ts';

/**
 * Issue 29, Microsoft 365 / Outlook.com wired end to end against a local server speaking the identity
 * platform's and Graph's wire format: consent → callback → the account shown → confirmed → connected; a deleted appointment proposed once
 * (delta); a claim booked into Outlook and removed on release; a state made for Google refused here.
 */
let t: TestApp;
let graph: FakeGraph;
const CALLBACK = callbackOf('microsoft');

beforeAll(async () => {
  graph = await startFakeGraph();
  t = await createTestApp({ env: graphEnv(graph) });
});
afterAll(async () => {
  await t?.close();
  await graph?.close();
});

const at = (hours: number) => new Date(t.clock.now().getTime() + hours * 3_600_000).toISOString();
async function aMinuteLater() {
  t.clock.advance(61_000);
  return t.app.calendarWorker.runOnce();
}
const calendarId = () => graph.calendars.find((calendar) => calendar.isDefaultCalendar)!.id;

describe('Microsoft 365 / Outlook.com', () => {
  it('connects by consent, proposes a deleted appointment once, books a claim into Outlook and removes it on release', async () => {
    const cut = graph.addEvent(calendarId(), { subject: 'Cut – Priya', start: at(26), end: at(27) });
    const o = await owner(t, { plan: 'growth' });
    const ana = await addCustomer(t, o.token, 9101, { name: 'Ana Ruiz' });
    const { consentUrl, state, cookie } = await startConsent(t, o.token, 'microsoft');
    expect(consentUrl.searchParams.get('scope')).toContain('offline_access');
    // A state made for Microsoft is not taken by the Google callback, even in the browser that started it.
    const crossed = await returnFromConsent(t, 'google', 'x', state, cookie);
    expect(crossed.headers.location).toContain('calendarError=');
    const landed = await returnFromConsent(t, 'microsoft', graph.issueCode(CALLBACK), state, cookie);
    const pendingId = pendingIdOf(landed);
    expect(pendingId).toMatch(/^[\da-f-]{36}$/);
    // The owner sees whose calendar it is before it is connected: the account Microsoft signed in.
    const pending = await call(t, o.token, 'GET', `/calendar/oauth/pending/${pendingId}`);
    expect(pending.json().data).toMatchObject({ kind: 'microsoft', account: graph.owner, name: 'Calendar' });
    expect((await call(t, o.token, 'GET', '/calendar/connections')).json().data).toEqual([]);
    const confirmed = await call(t, o.token, 'POST', `/calendar/oauth/pending/${pendingId}/confirm`);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const list = (await call(t, o.token, 'GET', '/calendar/connections')).json();
    expect(list.available).toContain('microsoft');
    expect(list.data).toMatchObject([{ kind: 'microsoft', writesBookings: true }]);

    graph.deleteEvent(cut.id);
    await aMinuteLater();
    await aMinuteLater();
    const proposals = (await call(t, o.token, 'GET', '/calendar/proposals')).json().data;
    expect(proposals).toMatchObject([{ title: 'Cut – Priya', reason: 'deleted', durationMinutes: 60 }]);

    const opened = await call(t, o.token, 'POST', `/calendar/proposals/${proposals[0].id}/open`);
    expect(opened.statusCode, opened.body).toBe(200);
    const openingId = opened.json().data.openingId as string;
    await receiveText(t, ana.phone, o.number, 'yes');
    expect(await aMinuteLater()).toMatchObject({ booked: 1 });
    const booked = [...graph.events.values()].filter(
      (event) => !event.deleted && event.transactionId?.includes(openingId),
    );
    expect(booked).toHaveLength(1);
    expect(booked[0]!.subject).toContain('Ana Ruiz');
    await aMinuteLater();
    expect((await call(t, o.token, 'GET', '/calendar/proposals')).json().data).toEqual([]);

    expect((await call(t, o.token, 'POST', `/openings/${openingId}/release`)).statusCode).toBe(200);
    expect(await aMinuteLater()).toMatchObject({ booked: 1 });
    expect(graph.events.get(booked[0]!.id)?.deleted ?? true).toBe(true);
  });
});
