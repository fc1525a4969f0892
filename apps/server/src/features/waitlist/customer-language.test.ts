import { type Customer, customerWords, type EarningsPeriod, waitlistMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, joinRequests, offers, openings } from '../../db/schema.ts';
import { createTestApp, type TestApp, uniqueIp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, customerPhone, owner } from './waitlist.test-helpers.ts';

/** Issue 28: a language per customer: stored, set by the owner, the CSV and the join page, filtered, counted. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const rowsOf = async (userId: string) =>
  t.database.db.select().from(customers).where(eq(customers.userId, userId));

describe('a customer language', () => {
  it('defaults to English in the column and the API, and is set and changed by the owner', async () => {
    const o = await owner(t, { plan: 'growth' });
    // The column's own default: a row written without a language reads English.
    await t.database.db.insert(customers).values({
      userId: o.id,
      name: 'Raw Row',
      phone: customerPhone(3001),
      position: 99,
      consentMethod: 'verbal',
    });
    expect((await rowsOf(o.id))[0]!.language).toBe('en');

    const ann = await addCustomer(t, o.token, 3002, { name: 'Ann' });
    expect(ann.language).toBe('en');
    const added = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Lucía',
      phone: customerPhone(3003),
      consentMethod: 'verbal',
      language: 'es',
    });
    expect(added.statusCode, added.body).toBe(201);
    const lucia = added.json().data as Customer;
    expect(lucia.language).toBe('es');

    const edited = await call(t, o.token, 'PATCH', `/waitlist/${ann.id}`, { language: 'es' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data.language).toBe('es');
    // An edit that does not name the language keeps it.
    const renamed = await call(t, o.token, 'PATCH', `/waitlist/${ann.id}`, { name: 'Ann B' });
    expect(renamed.json().data.language).toBe('es');
    const back = await call(t, o.token, 'PATCH', `/waitlist/${lucia.id}`, { language: 'en' });
    expect(back.json().data.language).toBe('en');
  });

  it('refuses a language other than English or Spanish with the catalogue message, writing nothing', async () => {
    const o = await owner(t, { plan: 'growth' });
    const bad = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Jean',
      phone: customerPhone(3010),
      consentMethod: 'verbal',
      language: 'fr',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(waitlistMessages.invalidLanguage);
    expect(await rowsOf(o.id)).toHaveLength(0);

    const ann = await addCustomer(t, o.token, 3011, { name: 'Ann' });
    for (const language of ['ES', 'spanish', 7, null]) {
      const edit = await call(t, o.token, 'PATCH', `/waitlist/${ann.id}`, { name: 'Changed', language });
      expect(edit.statusCode).toBe(400);
      expect(edit.body).toContain(waitlistMessages.invalidLanguage);
    }
    const [row] = await rowsOf(o.id);
    expect(row).toMatchObject({ name: 'Ann', language: 'en' });

    const list = await call(t, o.token, 'GET', '/waitlist?language=fr');
    expect(list.statusCode).toBe(400);
    expect(list.body).toContain(waitlistMessages.invalidLanguage);
  });

  it('filters the waitlist by language', async () => {
    const o = await owner(t, { plan: 'growth' });
    await addCustomer(t, o.token, 3020, { name: 'Ann' });
    await call(t, o.token, 'POST', '/waitlist', {
      name: 'Lucía',
      phone: customerPhone(3021),
      consentMethod: 'verbal',
      language: 'es',
    });
    const names = async (query: string) =>
      ((await call(t, o.token, 'GET', `/waitlist${query}`)).json().data as Customer[]).map((c) => c.name);
    expect(await names('?language=es')).toEqual(['Lucía']);
    expect(await names('?language=en')).toEqual(['Ann']);
    expect(await names('')).toEqual(['Ann', 'Lucía']);
  });

  it('imports an optional language column in any common spelling; an unknown one is that row’s error', async () => {
    const o = await owner(t, { plan: 'growth' });
    const csv = [
      'name,phone,language',
      `A,${customerPhone(3031)},es`,
      `B,${customerPhone(3032)},SPANISH`,
      `C,${customerPhone(3033)},Español`,
      `D,${customerPhone(3034)},inglés`,
      `E,${customerPhone(3035)},English`,
      `F,${customerPhone(3036)},`,
      `G,${customerPhone(3037)},Français`,
      `H,${customerPhone(3038)},EN`,
    ].join('\n');
    const preview = await call(t, o.token, 'POST', '/waitlist/import/preview', { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ valid: 7, invalid: 1 });
    const bad = (preview.json().data.rows as { name: string; error: string | null }[]).filter((r) => r.error);
    expect(bad).toEqual([expect.objectContaining({ name: 'G', error: waitlistMessages.invalidLanguage })]);

    const done = await call(t, o.token, 'POST', '/waitlist/import', { csv });
    expect(done.json().data.imported).toBe(7);
    const languages = Object.fromEntries((await rowsOf(o.id)).map((row) => [row.name, row.language]));
    expect(languages).toEqual({ A: 'es', B: 'es', C: 'es', D: 'en', E: 'en', F: 'en', H: 'en' });
  });
});

describe('joining in a language', () => {
  async function ownerWithLink() {
    const o = await owner(t, { plan: 'growth' });
    const slug = (await call(t, o.token, 'GET', '/join-link')).json().data.slug as string;
    return { ...o, slug };
  }
  const join = (slug: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/join/${slug}`, payload, remoteAddress: uniqueIp() });

  it('keeps the language the page was shown in until the YES, which gives it to the customer', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(3041);
    const answer = await join(o.slug, { name: 'Lucía', phone, consent: true, language: 'es' });
    expect(answer.statusCode, answer.body).toBe(200);
    const [request] = await t.database.db.select().from(joinRequests).where(eq(joinRequests.userId, o.id));
    expect(request!.language).toBe('es');
    // The consent kept is the wording the customer read, in their language.
    expect(request!.consentText).toBe(customerWords('es').join.consent('Bella Salon'));
    expect(request!.consentText).not.toBe(customerWords('en').join.consent('Bella Salon'));

    await receiveText(t, phone, o.number, 'YES');
    const [customer] = await rowsOf(o.id);
    expect(customer).toMatchObject({ name: 'Lucía', language: 'es', status: 'waiting' });
  });

  it('joins in English without a language, and refuses an unknown one with nothing kept', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(3051);
    const bad = await join(o.slug, { name: 'Jean', phone, consent: true, language: 'fr' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(waitlistMessages.invalidLanguage);
    expect(await t.database.db.select().from(joinRequests).where(eq(joinRequests.userId, o.id))).toHaveLength(
      0,
    );

    expect((await join(o.slug, { name: 'Ann', phone, consent: true })).statusCode).toBe(200);
    const [request] = await t.database.db.select().from(joinRequests).where(eq(joinRequests.userId, o.id));
    expect(request).toMatchObject({
      language: 'en',
      consentText: customerWords('en').join.consent('Bella Salon'),
    });
    await receiveText(t, phone, o.number, 'YES');
    expect((await rowsOf(o.id))[0]!.language).toBe('en');
  });
});

describe('the dashboard counts alerts per language', () => {
  it('counts the alerts texted in the range by the language of the customer each went to', async () => {
    const o = await owner(t, { plan: 'growth' });
    const period = async (): Promise<EarningsPeriod> =>
      (await call(t, o.token, 'GET', '/dashboard/earnings?range=90d')).json().data.period;
    const ann = await addCustomer(t, o.token, 3061, { name: 'Ann' });
    const bob = await addCustomer(t, o.token, 3062, { name: 'Bob' });
    expect(await period()).toMatchObject({ alertsByLanguage: { en: 0, es: 0 }, hasSpanishCustomers: false });

    const lucia = (
      await call(t, o.token, 'POST', '/waitlist', {
        name: 'Lucía',
        phone: customerPhone(3063),
        consentMethod: 'verbal',
        language: 'es',
      })
    ).json().data as Customer;
    const now = t.clock.now();
    const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3_600_000);
    const made = await t.database.db
      .insert(openings)
      .values(
        [1, 2, 3].map((n) => ({
          userId: o.id,
          startsAt: new Date(now.getTime() + n * 86_400_000),
          durationMinutes: 30,
          service: 'Cut',
          priceCents: 5000,
          status: 'expired' as const,
          mode: 'all' as const,
          createdAt: hoursAgo(n),
          localDate: now.toISOString().slice(0, 10),
        })),
      )
      .returning({ id: openings.id });
    const [first, second, third] = made.map((row) => row.id);
    await t.database.db.insert(offers).values([
      { openingId: first!, customerId: ann.id, wave: 1, status: 'lost', sentAt: hoursAgo(1) },
      { openingId: first!, customerId: bob.id, wave: 1, status: 'lost', sentAt: hoursAgo(1) },
      { openingId: first!, customerId: lucia.id, wave: 1, status: 'lost', sentAt: hoursAgo(1) },
      { openingId: second!, customerId: ann.id, wave: 1, status: 'lost', sentAt: hoursAgo(2) },
      { openingId: second!, customerId: lucia.id, wave: 1, status: 'lost', sentAt: hoursAgo(2) },
      // Never texted (a later wave) and texted long before the range: not counted.
      { openingId: third!, customerId: bob.id, wave: 2, status: 'pending', sentAt: null },
      { openingId: third!, customerId: lucia.id, wave: 1, status: 'lost', sentAt: hoursAgo(24 * 200) },
    ]);
    expect(await period()).toMatchObject({ alertsByLanguage: { en: 3, es: 2 }, hasSpanishCustomers: true });

    // Removing the Spanish customer keeps their alerts counted, but no one on the list reads Spanish now.
    expect((await call(t, o.token, 'DELETE', `/waitlist/${lucia.id}`)).statusCode).toBe(200);
    expect(await period()).toMatchObject({ alertsByLanguage: { en: 3, es: 2 }, hasSpanishCustomers: false });
  });
});
