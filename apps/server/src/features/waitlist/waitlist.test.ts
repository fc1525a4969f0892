import { billingMessages, customerWords, waitlistMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, users } from '../../db/schema.ts';
import { lateBody } from '../../test/race.ts';
import { createTestApp, onboardedUser, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, customerPhone, importCustomers, owner } from './waitlist.test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('waitlist API', () => {
  it('adds customers with the phone in any common format stored as E.164, and lists them in order', async () => {
    const o = await owner(t);
    const formats = [
      '(212) 555-0101',
      '212.555.0102',
      '+1 212 555 0103',
      '1-212-555-0104',
      '+44 20 7946 0958',
    ];
    for (const [index, phone] of formats.entries()) {
      const response = await call(t, o.token, 'POST', '/waitlist', {
        name: `Person ${index}`,
        phone,
        consentMethod: 'written',
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const list = await call(t, o.token, 'GET', '/waitlist');
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body.data.map((c: { phone: string }) => c.phone)).toEqual([
      '+12125550101',
      '+12125550102',
      '+12125550103',
      '+12125550104',
      '+442079460958',
    ]);
    expect(body).toMatchObject({
      count: 5,
      cap: 25,
      plan: 'free_trial',
      readOnly: false,
      readOnlyReason: null,
    });
    expect(body.data[0]).toMatchObject({
      status: 'waiting',
      consentMethod: 'written',
      optedOut: false,
      position: 1,
    });

    const invalid = await call(t, o.token, 'POST', '/waitlist', {
      name: 'X',
      phone: '12345',
      consentMethod: 'verbal',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.phone).toBe(waitlistMessages.invalidPhone);
  });

  it('requires how the customer consented', async () => {
    const o = await owner(t);
    const response = await call(t, o.token, 'POST', '/waitlist', {
      name: 'No Consent',
      phone: customerPhone(1),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors.consentMethod).toBe(waitlistMessages.consentRequired);
  });

  it('refuses the same phone twice on one waitlist, whatever the format, but allows it after removal', async () => {
    const o = await owner(t);
    const first = await addCustomer(t, o.token, 1, { phone: '(212) 555-0001' });
    const again = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Again',
      phone: '+1 212-555-0001',
      consentMethod: 'verbal',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(waitlistMessages.duplicatePhone('+12125550001'));
    // Editing another customer onto the same phone is refused too.
    const second = await addCustomer(t, o.token, 2);
    const edit = await call(t, o.token, 'PATCH', `/waitlist/${second.id}`, { phone: '2125550001' });
    expect(edit.statusCode).toBe(409);
    // Another business may have the same customer.
    const other = await owner(t);
    await addCustomer(t, other.token, 1);
    // Removed, then added again.
    expect((await call(t, o.token, 'DELETE', `/waitlist/${first.id}`)).statusCode).toBe(200);
    expect(
      (
        await call(t, o.token, 'POST', '/waitlist', {
          name: 'Back',
          phone: customerPhone(1),
          consentMethod: 'verbal',
        })
      ).statusCode,
    ).toBe(201);
  });

  it('caps the trial at 25 customers with a message naming the plan, the cap and the upgrade', async () => {
    const o = await owner(t);
    expect((await importCustomers(t, o.token, 1, 25)).imported).toBe(25);
    const refused = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Number 26',
      phone: customerPhone(26),
      consentMethod: 'verbal',
    });
    expect(refused.statusCode).toBe(403);
    const message = refused.json().message as string;
    expect(message).toBe(waitlistMessages.capReached('free_trial', 25));
    expect(message).toContain('Free Trial');
    expect(message).toContain('25');
    expect(message).toContain('Upgrade');
    expect((await call(t, o.token, 'GET', '/waitlist')).json()).toMatchObject({ count: 25, cap: 25 });
  });

  it('caps Starter at 25 and Growth at 100', async () => {
    const starter = await owner(t, { plan: 'starter' });
    await importCustomers(t, starter.token, 1, 25);
    expect(
      (
        await call(t, starter.token, 'POST', '/waitlist', {
          name: 'X',
          phone: customerPhone(99),
          consentMethod: 'verbal',
        })
      ).statusCode,
    ).toBe(403);

    const growth = await owner(t, { plan: 'growth' });
    // Import stops at the cap: row 101 comes back with the cap error.
    const imported = await call(t, growth.token, 'POST', '/waitlist/import', {
      csv: ['name,phone', ...Array.from({ length: 101 }, (_, i) => `C ${i},${customerPhone(i + 1)}`)].join(
        '\n',
      ),
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().data.imported).toBe(100);
    expect(imported.json().data.rows.at(-1).error).toBe(waitlistMessages.capReached('growth', 100));
    const refused = await call(t, growth.token, 'POST', '/waitlist', {
      name: 'X',
      phone: customerPhone(500),
      consentMethod: 'verbal',
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('100');
    expect((await call(t, growth.token, 'GET', '/waitlist')).json()).toMatchObject({
      count: 100,
      cap: 100,
      plan: 'growth',
    });
  });

  it('reorders, edits and searches by name, notes and phone digits', async () => {
    const o = await owner(t);
    const a = await addCustomer(t, o.token, 11, { name: 'Ann Lee', notes: 'prefers mornings' });
    const b = await addCustomer(t, o.token, 22, { name: 'Bob Stone' });
    const c = await addCustomer(t, o.token, 33, { name: 'Cara Diaz' });
    const reordered = await call(t, o.token, 'POST', '/waitlist/reorder', { ids: [c.id, a.id, b.id] });
    expect(reordered.statusCode, reordered.body).toBe(200);
    const names = async (query = '') =>
      (await call(t, o.token, 'GET', `/waitlist${query}`)).json().data.map((x: { name: string }) => x.name);
    expect(await names()).toEqual(['Cara Diaz', 'Ann Lee', 'Bob Stone']);
    // A part of the list keeps the positions it had between them.
    await call(t, o.token, 'POST', '/waitlist/reorder', { ids: [b.id, a.id] });
    expect(await names()).toEqual(['Cara Diaz', 'Bob Stone', 'Ann Lee']);
    const unknown = await call(t, o.token, 'POST', '/waitlist/reorder', {
      ids: [a.id, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);

    expect(await names('?search=stone')).toEqual(['Bob Stone']);
    expect(await names('?search=morning')).toEqual(['Ann Lee']);
    expect(await names('?search=(212) 555-0033')).toEqual(['Cara Diaz']);
    expect(await names('?search=0022')).toEqual(['Bob Stone']);

    const edit = await call(t, o.token, 'PATCH', `/waitlist/${a.id}`, {
      name: 'Ann Lee-Smith',
      preferences: [{ days: [1, 2], from: '09:00', to: '12:00' }],
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data).toMatchObject({
      name: 'Ann Lee-Smith',
      preferences: [{ days: [1, 2], from: '09:00', to: '12:00' }],
    });
    const badPreference = await call(t, o.token, 'PATCH', `/waitlist/${a.id}`, {
      preferences: [{ days: [1], from: '12:00', to: '09:00' }],
    });
    expect(badPreference.statusCode).toBe(400);
    await call(t, o.token, 'DELETE', `/waitlist/${b.id}`);
    expect(await names()).toEqual(['Cara Diaz', 'Ann Lee-Smith']);
    expect(await names('?status=removed')).toEqual(['Bob Stone']);
  });

  it('previews a CSV import with per-row errors, then imports the valid rows', async () => {
    const o = await owner(t);
    await addCustomer(t, o.token, 1);
    const csv = [
      'Phone,Name,Notes',
      '(212) 555-0002,Good One,"likes Tuesdays, afternoons"',
      '12345,Bad Phone,',
      ',No Phone,',
      '2125550001,Already There,',
      '212-555-0002,Twice In File,',
      '',
      '+12125550005,Good Two,',
    ].join('\n');
    const preview = await call(t, o.token, 'POST', '/waitlist/import/preview', { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ valid: 2, invalid: 4 });
    // Issue 39: each row also says what it got (service, staff, language); these rows name none.
    expect(preview.json().data.rows).toMatchObject([
      { line: 2, name: 'Good One', phone: '+12125550002', error: null, service: null, staff: null },
      { line: 3, name: 'Bad Phone', phone: '12345', error: waitlistMessages.invalidPhone },
      { line: 4, name: 'No Phone', phone: '', error: waitlistMessages.phoneRequired },
      {
        line: 5,
        name: 'Already There',
        phone: '+12125550001',
        error: waitlistMessages.duplicatePhone('+12125550001'),
      },
      { line: 6, name: 'Twice In File', phone: '+12125550002', error: 'Same phone number as line 2' },
      { line: 8, name: 'Good Two', phone: '+12125550005', error: null },
    ]);
    // Preview writes nothing.
    expect((await call(t, o.token, 'GET', '/waitlist')).json().count).toBe(1);
    const commit = await call(t, o.token, 'POST', '/waitlist/import', { csv });
    expect(commit.json().data.imported).toBe(2);
    const list = (await call(t, o.token, 'GET', '/waitlist')).json().data;
    expect(list.map((c: { name: string }) => c.name)).toEqual(['Customer 1', 'Good One', 'Good Two']);
    expect(list[1]).toMatchObject({ consentMethod: 'imported', notes: 'likes Tuesdays, afternoons' });
    expect((await call(t, o.token, 'POST', '/waitlist/import/preview', { csv: '\n\n' })).statusCode).toBe(
      400,
    );
  });

  it('is read-only after the trial ends, with the standing message, and for past_due', async () => {
    const o = await owner(t);
    const customer = await addCustomer(t, o.token, 1);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, o.id));
    // Move the clock past the trial's end.
    t.clock.advance(row!.trialEndDate!.getTime() - t.clock.now().getTime() + 1000);
    try {
      const list = (await call(t, o.token, 'GET', '/waitlist')).json();
      expect(list).toMatchObject({ readOnly: true, readOnlyReason: billingMessages.trialExpired, count: 1 });
      const add = await call(t, o.token, 'POST', '/waitlist', {
        name: 'Late',
        phone: customerPhone(2),
        consentMethod: 'verbal',
      });
      expect(add.statusCode).toBe(403);
      expect(add.json().message).toBe(billingMessages.trialExpired);
      expect((await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, { name: 'New' })).statusCode).toBe(
        403,
      );
      expect((await call(t, o.token, 'DELETE', `/waitlist/${customer.id}`)).statusCode).toBe(403);
      expect((await call(t, o.token, 'POST', '/waitlist/import', { csv: 'A,2125550009' })).statusCode).toBe(
        403,
      );
      expect(
        (await call(t, o.token, 'POST', `/waitlist/${customer.id}/messages`, { body: 'Hi' })).statusCode,
      ).toBe(403);
      const opening = await call(t, o.token, 'POST', '/openings', {
        startsAt: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
        mode: 'all',
      });
      expect(opening.statusCode).toBe(403);
      expect(opening.json().message).toBe(billingMessages.trialExpired);
    } finally {
      t.clock.advance(-(row!.trialEndDate!.getTime() - t.clock.now().getTime() + 1000));
    }

    const late = await owner(t, { plan: 'growth' });
    await t.database.db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, late.id));
    const list = (await call(t, late.token, 'GET', '/waitlist')).json();
    expect(list).toMatchObject({ readOnly: true, readOnlyReason: billingMessages.pastDue });
    const add = await call(t, late.token, 'POST', '/waitlist', {
      name: 'X',
      phone: customerPhone(3),
      consentMethod: 'verbal',
    });
    expect(add.statusCode).toBe(403);
    expect(add.json().message).toBe(billingMessages.pastDue);
  });

  it('decides read-only from the locked owner row, not the session read before the body (issue 24)', async () => {
    const o = await owner(t, { plan: 'growth' });
    const customer = await addCustomer(t, o.token, 11);
    const lapse = () =>
      t.database.db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, o.id));
    const restore = () =>
      t.database.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, o.id));
    const writes = [
      { method: 'POST' as const, url: `/api/v1/waitlist/${customer.id}/messages`, payload: { body: 'Hi' } },
      { method: 'PATCH' as const, url: `/api/v1/waitlist/${customer.id}`, payload: { name: 'Renamed' } },
      { method: 'POST' as const, url: '/api/v1/waitlist/import', payload: { csv: 'A,2125550019' } },
      {
        method: 'POST' as const,
        url: '/api/v1/waitlist',
        payload: { name: 'Late', phone: customerPhone(12), consentMethod: 'verbal' },
      },
    ];
    for (const write of writes) {
      // The session is read while the account is in good standing; the payment lapses before the body arrives.
      const answer = await lateBody(
        t.app,
        { ...write, headers: { authorization: `Bearer ${o.token}` } },
        lapse,
      );
      expect(answer.statusCode, `${write.method} ${write.url}`).toBe(403);
      expect(answer.json().message).toBe(billingMessages.pastDue);
      await restore();
    }
    expect(await t.database.db.select().from(messages).where(eq(messages.customerId, customer.id))).toEqual(
      [],
    );
  });

  it('sends one text from a template: the first ends with the opt-out line, shown in the conversation', async () => {
    const o = await owner(t);
    const customer = await addCustomer(t, o.token, 7);
    const templates = (await call(t, o.token, 'GET', '/message-templates')).json().data;
    const keys = ['confirmation', 'reminder', 'cancellation_alert', 'claimed', 'already_filled'];
    expect(templates.map((x: { key: string; language: string }) => `${x.language}:${x.key}`)).toEqual([
      ...keys.map((key) => `en:${key}`),
      ...keys.map((key) => `es:${key}`),
    ]);
    expect(templates[0]).toEqual({
      key: 'confirmation',
      language: 'en',
      body: customerWords().templates.confirmation,
      isDefault: true,
    });
    const saved = await call(t, o.token, 'PUT', '/message-templates/reminder', {
      body: 'See you {time}, {name}!',
    });
    expect(saved.json().data).toEqual({
      key: 'reminder',
      language: 'en',
      body: 'See you {time}, {name}!',
      isDefault: false,
    });
    expect((await call(t, o.token, 'PUT', '/message-templates/nope', { body: 'x' })).statusCode).toBe(400);

    const first = await call(t, o.token, 'POST', `/waitlist/${customer.id}/messages`, {
      body: 'See you at 3, Customer!',
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data).toMatchObject({
      direction: 'out',
      status: 'queued',
      body: 'See you at 3, Customer!\nReply STOP to opt out',
    });
    await call(t, o.token, 'POST', `/waitlist/${customer.id}/messages`, { body: 'Second' });
    const thread = (await call(t, o.token, 'GET', `/waitlist/${customer.id}/messages`)).json();
    expect(thread.data.map((m: { body: string }) => m.body)).toEqual([
      'See you at 3, Customer!\nReply STOP to opt out',
      'Second',
    ]);
    expect(thread.customer.firstTextSent).toBe(true);

    // No text from a number that is not verified.
    await t.database.db.update(users).set({ plivoNumberStatus: 'pending' }).where(eq(users.id, o.id));
    const refused = await call(t, o.token, 'POST', `/waitlist/${customer.id}/messages`, { body: 'Third' });
    expect(refused.statusCode).toBe(403);
    const count = await t.database.db.select().from(messages).where(eq(messages.customerId, customer.id));
    expect(count).toHaveLength(2);
  });

  it('sets the business time zone', async () => {
    const o = await owner(t);
    expect((await call(t, o.token, 'GET', '/settings/time-zone')).json().data.timeZone).toBe(
      'America/New_York',
    );
    const saved = await call(t, o.token, 'PUT', '/settings/time-zone', { timeZone: 'America/Los_Angeles' });
    expect(saved.statusCode).toBe(200);
    expect((await call(t, o.token, 'GET', '/settings/time-zone')).json().data.timeZone).toBe(
      'America/Los_Angeles',
    );
    const bad = await call(t, o.token, 'PUT', '/settings/time-zone', { timeZone: 'Mars/Olympus' });
    expect(bad.statusCode).toBe(400);
  });

  it('is for full users only', async () => {
    const user = await onboardedUser(t);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/waitlist' })).statusCode).toBe(401);
    expect((await call(t, user.token, 'GET', '/waitlist')).statusCode).toBe(200);
  });
});
