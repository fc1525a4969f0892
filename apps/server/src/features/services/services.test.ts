import {
  billingMessages,
  DEFAULT_DAILY_OFFER_CAP,
  DEFAULT_SEND_WINDOW,
  offerMessages,
} from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, users } from '../../db/schema.ts';
import { lateBody } from '../../test/race.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

/** Issue 26: a business's services, its staff and its offer rules. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('services', () => {
  it('adds, lists (by name), edits and deletes services', async () => {
    const o = await owner(t);
    expect((await call(t, o.token, 'GET', '/services')).json()).toEqual({ success: true, data: [] });

    const colour = await call(t, o.token, 'POST', '/services', {
      name: '  Colour ',
      durationMinutes: 90,
      priceCents: 12000,
    });
    expect(colour.statusCode, colour.body).toBe(201);
    expect(colour.json()).toEqual({
      success: true,
      data: { id: expect.any(String), name: 'Colour', durationMinutes: 90, priceCents: 12000 },
      message: offerMessages.serviceSaved,
    });
    const cut = await call(t, o.token, 'POST', '/services', { name: 'Cut', durationMinutes: 30 });
    expect(cut.json().data).toMatchObject({ name: 'Cut', priceCents: null });
    const list = (await call(t, o.token, 'GET', '/services')).json().data as { name: string }[];
    expect(list.map((service) => service.name)).toEqual(['Colour', 'Cut']);

    const id = cut.json().data.id as string;
    const edited = await call(t, o.token, 'PUT', `/services/${id}`, {
      name: 'Cut & style',
      durationMinutes: 45,
      priceCents: 5500,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toEqual({
      success: true,
      data: { id, name: 'Cut & style', durationMinutes: 45, priceCents: 5500 },
      message: offerMessages.serviceSaved,
    });
    // Its own name again, in another case, is no clash.
    const recased = await call(t, o.token, 'PUT', `/services/${id}`, {
      name: 'CUT & STYLE',
      durationMinutes: 45,
    });
    expect(recased.statusCode, recased.body).toBe(200);

    const removed = await call(t, o.token, 'DELETE', `/services/${id}`);
    expect(removed.json()).toEqual({ success: true, message: offerMessages.serviceDeleted });
    expect((await call(t, o.token, 'GET', '/services')).json().data).toHaveLength(1);
    const again = await call(t, o.token, 'DELETE', `/services/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(offerMessages.serviceNotFound);
  });

  it('refuses a name the business already has, in any case (409 naming the field)', async () => {
    const o = await owner(t);
    await call(t, o.token, 'POST', '/services', { name: 'Beard trim', durationMinutes: 20 });
    const clash = await call(t, o.token, 'POST', '/services', { name: 'BEARD TRIM', durationMinutes: 25 });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      success: false,
      message: offerMessages.serviceNameTaken('BEARD TRIM'),
      errors: { name: offerMessages.serviceNameTaken('BEARD TRIM') },
    });
    const other = await call(t, o.token, 'POST', '/services', { name: 'Shave', durationMinutes: 15 });
    const renamed = await call(t, o.token, 'PUT', `/services/${other.json().data.id}`, {
      name: 'beard trim',
      durationMinutes: 15,
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().errors).toEqual({ name: offerMessages.serviceNameTaken('beard trim') });
    // Another business may use the same name.
    const elsewhere = await owner(t);
    const theirs = await call(t, elsewhere.token, 'POST', '/services', {
      name: 'Beard trim',
      durationMinutes: 20,
    });
    expect(theirs.statusCode).toBe(201);
  });

  it('answers invalid input with the contract messages', async () => {
    const o = await owner(t);
    const cases: [object, string, string][] = [
      [{ name: ' ', durationMinutes: 30 }, 'name', offerMessages.serviceNameRequired],
      [{ name: 'Cut', durationMinutes: 4 }, 'durationMinutes', offerMessages.invalidDuration],
      [{ name: 'Cut', durationMinutes: 24 * 60 + 1 }, 'durationMinutes', offerMessages.invalidDuration],
      [{ name: 'Cut', durationMinutes: 30.5 }, 'durationMinutes', offerMessages.invalidDuration],
      [{ name: 'Cut', durationMinutes: 30, priceCents: -1 }, 'priceCents', offerMessages.invalidPrice],
    ];
    for (const [payload, field, message] of cases) {
      const answer = await call(t, o.token, 'POST', '/services', payload);
      expect(answer.statusCode, JSON.stringify(payload)).toBe(400);
      expect(answer.json().errors?.[field], JSON.stringify(payload)).toBe(message);
    }
    const staff = await call(t, o.token, 'POST', '/staff', { name: '' });
    expect(staff.statusCode).toBe(400);
    expect(staff.json().errors?.name).toBe(offerMessages.staffNameRequired);
  });

  it("gives another owner's service and staff ids 404, never changed", async () => {
    const o = await owner(t);
    const other = await owner(t);
    const service = (await call(t, o.token, 'POST', '/services', { name: 'Cut', durationMinutes: 30 })).json()
      .data;
    const stylist = (await call(t, o.token, 'POST', '/staff', { name: 'Jo' })).json().data;
    // A name the other owner has too: still 404, not 409.
    await call(t, other.token, 'POST', '/services', { name: 'Colour', durationMinutes: 60 });
    const attempts = [
      [
        'PUT',
        `/services/${service.id}`,
        { name: 'Colour', durationMinutes: 60 },
        offerMessages.serviceNotFound,
      ],
      ['DELETE', `/services/${service.id}`, undefined, offerMessages.serviceNotFound],
      ['PUT', `/staff/${stylist.id}`, { name: 'Sam' }, offerMessages.staffNotFound],
      ['DELETE', `/staff/${stylist.id}`, undefined, offerMessages.staffNotFound],
    ] as const;
    for (const [method, path, payload, message] of attempts) {
      const answer = await call(t, other.token, method, path, payload);
      expect(answer.statusCode, `${method} ${path}`).toBe(404);
      expect(answer.json().message).toBe(message);
    }
    expect((await call(t, other.token, 'GET', '/staff')).json().data).toEqual([]);
    expect((await call(t, o.token, 'GET', '/services')).json().data).toEqual([service]);
    expect((await call(t, o.token, 'GET', '/staff')).json().data).toEqual([stylist]);
  });
});

describe('staff', () => {
  it('adds, lists, renames and deletes staff; a deleted one leaves the customers waiting for them', async () => {
    const o = await owner(t);
    const jo = await call(t, o.token, 'POST', '/staff', { name: 'Jo' });
    expect(jo.statusCode, jo.body).toBe(201);
    expect(jo.json()).toEqual({
      success: true,
      data: { id: expect.any(String), name: 'Jo' },
      message: offerMessages.staffSaved,
    });
    await call(t, o.token, 'POST', '/staff', { name: 'alex' });
    const clash = await call(t, o.token, 'POST', '/staff', { name: 'JO' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors).toEqual({ name: offerMessages.staffNameTaken('JO') });
    const list = (await call(t, o.token, 'GET', '/staff')).json();
    expect(list.data.map((member: { name: string }) => member.name)).toEqual(['alex', 'Jo']);

    const id = jo.json().data.id as string;
    const renamed = await call(t, o.token, 'PUT', `/staff/${id}`, { name: 'Joanna' });
    expect(renamed.json()).toEqual({
      success: true,
      data: { id, name: 'Joanna' },
      message: offerMessages.staffSaved,
    });

    const customer = await addCustomer(t, o.token, 501, { staffId: id });
    expect(customer).toMatchObject({ staffId: id });
    const removed = await call(t, o.token, 'DELETE', `/staff/${id}`);
    expect(removed.json()).toEqual({ success: true, message: offerMessages.staffDeleted });
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row).toMatchObject({ status: 'waiting', staffId: null });
  });
});

describe('offer rules', () => {
  it('gives the defaults until the owner saves their own', async () => {
    const o = await owner(t);
    expect((await call(t, o.token, 'GET', '/settings/offers')).json()).toEqual({
      success: true,
      data: {
        sendFrom: DEFAULT_SEND_WINDOW.from,
        sendUntil: DEFAULT_SEND_WINDOW.until,
        dailyOfferCap: DEFAULT_DAILY_OFFER_CAP,
      },
    });
    const rules = { sendFrom: '09:30', sendUntil: '21:00', dailyOfferCap: 20 };
    const saved = await call(t, o.token, 'PUT', '/settings/offers', rules);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ success: true, data: rules, message: offerMessages.settingsSaved });
    expect((await call(t, o.token, 'GET', '/settings/offers')).json().data).toEqual(rules);
    const narrower = { sendFrom: '08:00', sendUntil: '12:00', dailyOfferCap: 1 };
    await call(t, o.token, 'PUT', '/settings/offers', narrower);
    expect((await call(t, o.token, 'GET', '/settings/offers')).json().data).toEqual(narrower);
    // Another business keeps the defaults.
    const other = await owner(t);
    expect((await call(t, other.token, 'GET', '/settings/offers')).json().data.dailyOfferCap).toBe(
      DEFAULT_DAILY_OFFER_CAP,
    );
  });

  it('never widens the window past 8:00–21:00, and keeps the cap from 1 to 20', async () => {
    const o = await owner(t);
    const windows: [string, string][] = [
      ['07:00', '20:00'],
      ['08:00', '21:30'],
      ['12:00', '12:00'],
      ['18:00', '09:00'],
      ['8:00', '20:00'],
      ['24:00', '20:00'],
    ];
    for (const [sendFrom, sendUntil] of windows) {
      const answer = await call(t, o.token, 'PUT', '/settings/offers', {
        sendFrom,
        sendUntil,
        dailyOfferCap: 3,
      });
      expect(answer.statusCode, `${sendFrom}–${sendUntil}`).toBe(400);
      expect(Object.values(answer.json().errors ?? {})).toContain(offerMessages.invalidSendWindow);
    }
    for (const dailyOfferCap of [0, 21, 2.5, -1]) {
      const answer = await call(t, o.token, 'PUT', '/settings/offers', {
        sendFrom: '08:00',
        sendUntil: '20:00',
        dailyOfferCap,
      });
      expect(answer.statusCode, String(dailyOfferCap)).toBe(400);
      expect(answer.json().errors?.dailyOfferCap).toBe(offerMessages.invalidDailyCap);
    }
    expect((await call(t, o.token, 'GET', '/settings/offers')).json().data.sendFrom).toBe('08:00');
  });
});

describe('a read-only account', () => {
  it('refuses every write, decided from the locked owner row (issue 24)', async () => {
    const o = await owner(t, { plan: 'growth' });
    const service = (await call(t, o.token, 'POST', '/services', { name: 'Cut', durationMinutes: 30 })).json()
      .data;
    const stylist = (await call(t, o.token, 'POST', '/staff', { name: 'Jo' })).json().data;
    const lapse = () =>
      t.database.db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, o.id));
    const restore = () =>
      t.database.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, o.id));
    const writes = [
      { method: 'POST' as const, url: '/api/v1/services', payload: { name: 'Colour', durationMinutes: 60 } },
      {
        method: 'PUT' as const,
        url: `/api/v1/services/${service.id}`,
        payload: { name: 'X', durationMinutes: 5 },
      },
      { method: 'DELETE' as const, url: `/api/v1/services/${service.id}`, payload: {} },
      { method: 'POST' as const, url: '/api/v1/staff', payload: { name: 'Sam' } },
      { method: 'PUT' as const, url: `/api/v1/staff/${stylist.id}`, payload: { name: 'Sam' } },
      { method: 'DELETE' as const, url: `/api/v1/staff/${stylist.id}`, payload: {} },
      {
        method: 'PUT' as const,
        url: '/api/v1/settings/offers',
        payload: { sendFrom: '09:00', sendUntil: '17:00', dailyOfferCap: 2 },
      },
    ];
    for (const write of writes) {
      // The session is read in good standing; the payment lapses before the body arrives.
      const answer = await lateBody(
        t.app,
        { ...write, headers: { authorization: `Bearer ${o.token}` } },
        lapse,
      );
      expect(answer.statusCode, `${write.method} ${write.url}`).toBe(403);
      expect(answer.json().message).toBe(billingMessages.pastDue);
      await restore();
    }
    expect((await call(t, o.token, 'GET', '/services')).json().data).toEqual([service]);
    expect((await call(t, o.token, 'GET', '/staff')).json().data).toEqual([stylist]);
    expect((await call(t, o.token, 'GET', '/settings/offers')).json().data.sendFrom).toBe('08:00');
    // Reads stay open while read-only.
    await lapse();
    expect((await call(t, o.token, 'GET', '/services')).statusCode).toBe(200);
    expect((await call(t, o.token, 'GET', '/settings/offers')).statusCode).toBe(200);
  });
});
