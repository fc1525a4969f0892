import { customerWords, joinRecordMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, joinRequests, messages, users } from '../../db/schema.ts';
import { createTestApp, type TestApp, uniqueIp } from '../../test/test-app.ts';
import { receiveText, textBodiesTo } from '../messaging/messaging.test-helpers.ts';
import { quickProofOfWork, solvedProof } from './join.test-helpers.ts';
import { call, customerPhone, importCustomers, owner } from './waitlist.test-helpers.ts';

const { join: joinWords, texts } = customerWords();

/** Issue 15: customers join a waitlist themselves. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: quickProofOfWork });
});
afterAll(async () => {
  await t.close();
});

const text = (from: string, to: string, text: string) => receiveText(t, from, to, text);
const textsTo = (phone: string) => textBodiesTo(t, phone);
function join(slug: string, payload: object, ip = uniqueIp()) {
  return t.app.inject({
    method: 'POST',
    url: `/api/v1/join/${slug}`,
    payload,
    remoteAddress: ip,
    headers: { 'user-agent': 'JoinTest/1.0' },
  });
}
async function ownerWithLink(plan: 'free_trial' | 'growth' = 'growth') {
  const o = await owner(t, { plan });
  const link = await call(t, o.token, 'GET', '/join-link');
  expect(link.statusCode, link.body).toBe(200);
  const data = link.json().data as { slug: string; url: string; posterUrl: string; qrSvgUrl: string };
  expect(data.url).toBe(`http://app.test/join/${data.slug}`);
  expect(data.posterUrl).toBe(`${data.url}/poster`);
  expect(data.qrSvgUrl).toBe(`http://app.test/api/v1/join/${data.slug}/qr.svg`);
  // Issue 24: 64 random bits, so links cannot be guessed.
  expect(data.slug).toMatch(/^bella-salon-[a-f0-9]{16}$/);
  // Asking again gives the same link.
  expect((await call(t, o.token, 'GET', '/join-link')).json().data.slug).toBe(data.slug);
  return { ...o, slug: data.slug };
}

describe('the public join page', () => {
  it('joins after a YES to the confirmation text, with the consent proof kept (double opt-in)', async () => {
    const o = await ownerWithLink();
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}` });
    expect(page.json()).toEqual({
      success: true,
      data: {
        businessName: 'Bella Salon',
        consentText: joinWords.consent('Bella Salon'),
        textNumber: o.number,
        full: false,
        proofRequired: false,
        services: [],
        staff: [],
      },
    });

    const phone = customerPhone(801);
    const answer = await join(
      o.slug,
      { name: 'Priya Shah', phone: '(212) 555-0801', consent: true },
      '203.0.113.9',
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe(joinWords.checkYourTexts('Bella Salon'));
    expect(await textsTo(phone)).toEqual([texts.joinRequest('Bella Salon')]);
    // Not waiting yet.
    expect(await t.database.db.select().from(customers).where(eq(customers.phone, phone))).toHaveLength(0);

    const result = await text(phone, o.number, 'Yes!');
    expect(result).toMatchObject({ outcome: 'received', action: 'joined' });
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.phone, phone));
    expect(customer).toMatchObject({ name: 'Priya Shah', status: 'waiting', consentMethod: 'web_form' });
    const [request] = await t.database.db.select().from(joinRequests).where(eq(joinRequests.phone, phone));
    expect(request).toMatchObject({
      status: 'confirmed',
      method: 'web_form',
      consentText: joinWords.consent('Bella Salon'),
      ipAddress: '203.0.113.9',
      userAgent: 'JoinTest/1.0',
      customerId: customer!.id,
    });
    expect(request!.confirmedAt).not.toBeNull();
    const [yes] = await t.database.db
      .select()
      .from(messages)
      .where(eq(messages.id, request!.confirmationMessageId!));
    expect(yes!.body).toBe('Yes!');
    expect((await textsTo(phone)).at(-1)).toBe(texts.joinWelcome('Bella Salon'));
  });

  it('keeps nothing from a bot that fills the honeypot, and answers it the same', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(811);
    const answer = await join(o.slug, { name: 'Bot', phone, consent: true, website: 'http://spam.example' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json().message).toBe(joinWords.checkYourTexts('Bella Salon'));
    expect(await textsTo(phone)).toEqual([]);
    expect(await t.database.db.select().from(joinRequests).where(eq(joinRequests.phone, phone))).toHaveLength(
      0,
    );
  });

  it('checks the fields and changes nothing on bad input', async () => {
    const o = await ownerWithLink();
    const bad = await join(o.slug, { name: ' ', phone: '12', consent: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      name: joinWords.nameRequired,
      phone: joinWords.invalidPhone,
      consent: joinWords.consentRequired,
    });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/join/no-such-business' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(joinWords.notFound);
  });

  it('gives an already-waiting phone the same answer and no second text', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(821);
    await join(o.slug, { name: 'Ann', phone, consent: true });
    await text(phone, o.number, 'YES');
    const before = (await textsTo(phone)).length;
    const again = await join(o.slug, { name: 'Ann', phone, consent: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(joinWords.checkYourTexts('Bella Salon'));
    expect(await textsTo(phone)).toHaveLength(before);
  });

  it('throttles per phone (3 a day) and per address (10 an hour), with Retry-After', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(831);
    for (let i = 0; i < 3; i += 1)
      expect((await join(o.slug, { name: 'A', phone, consent: true })).statusCode).toBe(200);
    const fourth = await join(o.slug, { name: 'A', phone, consent: true });
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);

    // Past the first three, each sign-up from the address carries a solved proof of work (issue 24).
    const ip = '198.51.100.77';
    for (let i = 0; i < 10; i += 1) {
      const altcha = i < 3 ? undefined : await solvedProof(t, o.slug, ip);
      expect(
        (await join(o.slug, { name: 'B', phone: customerPhone(840 + i), consent: true, altcha }, ip))
          .statusCode,
      ).toBe(200);
    }
    const altcha = await solvedProof(t, o.slug, ip);
    expect(
      (await join(o.slug, { name: 'B', phone: customerPhone(851), consent: true, altcha }, ip)).statusCode,
    ).toBe(429);
  });

  it('gives the poster the business number only once it is verified (issue 27)', async () => {
    const o = await ownerWithLink();
    const page = () => t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}` });
    expect((await page()).json().data.textNumber).toMatch(/^\+1555555\d{4}$/);
    await t.database.db.update(users).set({ plivoNumberStatus: 'pending' }).where(eq(users.id, o.id));
    expect((await page()).json().data.textNumber).toBeNull();
  });

  it('says kindly when the waitlist is full, and sends nothing', async () => {
    const o = await ownerWithLink('free_trial');
    await importCustomers(t, o.token, 860, 25);
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}` });
    expect(page.json().data.full).toBe(true);
    const phone = customerPhone(890);
    const answer = await join(o.slug, { name: 'Zed', phone, consent: true });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(joinWords.full('Bella Salon'));
    expect(await textsTo(phone)).toEqual([]);
  });

  it('takes no sign-ups while the owner’s waitlist is read-only (billing past due)', async () => {
    const o = await ownerWithLink();
    await t.database.db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, o.id));
    const phone = customerPhone(895);
    const answer = await join(o.slug, { name: 'Zed', phone, consent: true });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toBe(joinWords.cannotText('Bella Salon'));
    expect(await textsTo(phone)).toEqual([]);
  });

  it('serves the link as a QR code, PNG and SVG', async () => {
    const o = await ownerWithLink();
    const svg = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/qr.svg` });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toContain('image/svg+xml');
    expect(svg.body).toMatch(/^<svg[^>]*viewBox/);
    const png = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/qr.png` });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/join/nobody/qr.png' })).statusCode).toBe(404);
  });
});

describe('joining by text', () => {
  it('JOIN from a new number asks for a YES, and the YES makes them waiting', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(901);
    expect(await text(phone, o.number, 'Join Priya Shah')).toMatchObject({ action: 'join_requested' });
    expect(await textsTo(phone)).toEqual([texts.joinRequest('Bella Salon')]);
    expect(await text(phone, o.number, 'yes please')).toMatchObject({ action: 'joined' });
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.phone, phone));
    expect(customer).toMatchObject({ name: 'Priya Shah', consentMethod: 'text_keyword', status: 'waiting' });
    const [request] = await t.database.db.select().from(joinRequests).where(eq(joinRequests.phone, phone));
    expect(request).toMatchObject({ method: 'text_keyword', consentText: joinRecordMessages.textConsent });
  });

  it('STOP from someone asked to confirm cancels it: a later YES adds nothing', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(911);
    await join(o.slug, { name: 'Sam', phone, consent: true });
    expect(await text(phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
    expect(await text(phone, o.number, 'YES')).toMatchObject({ action: 'ignored' });
    expect(await t.database.db.select().from(customers).where(eq(customers.phone, phone))).toHaveLength(0);
    expect((await textsTo(phone)).at(-1)).toBe(texts.joinStopped('Bella Salon'));
  });

  it('ignores anything else from a number that is not a customer', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(921);
    expect(await text(phone, o.number, 'YES')).toMatchObject({ action: 'ignored' });
    expect(await text(phone, o.number, 'hello?')).toMatchObject({ action: 'ignored' });
    expect(await textsTo(phone)).toEqual([]);
  });
});

describe('joining on the page in Spanish (issue 28)', () => {
  it('answers, texts the request and welcomes in Spanish, and the customer reads Spanish', async () => {
    const es = customerWords('es');
    const o = await ownerWithLink();
    const phone = customerPhone(861);
    const answer = await join(o.slug, { name: 'Lucía Pérez', phone, consent: true, language: 'es' });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe(es.join.checkYourTexts('Bella Salon'));
    expect(await textsTo(phone)).toEqual([es.texts.joinRequest('Bella Salon')]);
    expect(await text(phone, o.number, 'SÍ')).toMatchObject({ action: 'joined' });
    expect((await textsTo(phone)).at(-1)).toBe(es.texts.joinWelcome('Bella Salon'));
    const rows = await t.database.db.select().from(customers).where(eq(customers.phone, phone));
    expect(rows.find((row) => row.userId === o.id)?.language).toBe('es');
  });

  it('refuses a number it cannot text in Spanish', async () => {
    const o = await ownerWithLink();
    const answer = await join(o.slug, {
      name: 'Lucía',
      phone: '+18005550100',
      consent: true,
      language: 'es',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(customerWords('es').join.notTextable);
  });
});
