import { customerWords } from '@waitlist/contract';
import { and, eq, inArray } from 'drizzle-orm';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { joinRequests, messages, smsOptOuts, users } from '../../db/schema.ts';
import { burst, statusCounts } from '../../test/race.ts';
import { createTestApp, type TestApp, uniqueIp } from '../../test/test-app.ts';
import { receiveText, textBodiesTo } from '../messaging/messaging.test-helpers.ts';
import { mayTextConfirmation, UNCONFIRMED_TEXTS_PER_DAY } from './join.service.ts';
import { quickProofOfWork, solvedProof } from './join.test-helpers.ts';
import { call, customerPhone, importCustomers, owner } from './waitlist.test-helpers.ts';

const { join: joinWords, texts } = customerWords();

/** Issue 24: SMS pumping and harassment through the join page and JOIN texts. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: quickProofOfWork });
});
afterAll(async () => {
  await t.close();
});

const textsTo = (phone: string) => textBodiesTo(t, phone);
function join(slug: string, payload: object, ip = uniqueIp()) {
  return t.app.inject({ method: 'POST', url: `/api/v1/join/${slug}`, payload, remoteAddress: ip });
}
async function ownerWithLink(plan: 'free_trial' | 'growth' = 'growth') {
  const o = await owner(t, { plan });
  const slug = (await call(t, o.token, 'GET', '/join-link')).json().data.slug as string;
  return { ...o, slug };
}
/** Everything kept or sent for a phone: join requests and texts. */
async function traces(phone: string) {
  const requests = await t.database.db.select().from(joinRequests).where(eq(joinRequests.phone, phone));
  return { requests: requests.length, texts: (await textsTo(phone)).length };
}

describe('only numbers of the business’s country that take texts', () => {
  it.each([
    ['+449098790000', 'UK premium rate'],
    ['+979123456789', 'international premium rate'],
    ['+881612345678', 'satellite'],
    ['+870772123456', 'Inmarsat'],
    ['+252611234567', 'Somalia'],
    ['+5352123456', 'Cuba'],
    ['+224621234567', 'Guinea'],
    ['+18005550100', 'US toll-free'],
    ['+19005550100', 'US premium rate'],
    ['+15146641234', 'Canada (another country on +1)'],
  ])('refuses %s (%s) with a clear message, keeping and sending nothing', async (phone) => {
    const o = await ownerWithLink();
    const answer = await join(o.slug, { name: 'Mallory', phone, consent: true });
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().errors).toEqual({ phone: joinWords.notTextable });
    expect(await traces(phone)).toEqual({ requests: 0, texts: 0 });
  });

  it('takes a mobile or landline of the business’s country', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(101);
    expect((await join(o.slug, { name: 'Ann', phone, consent: true })).statusCode).toBe(200);
    expect(await textsTo(phone)).toEqual([texts.joinRequest('Bella Salon')]);
  });

  it('answers no JOIN, STOP or START texted from such a number, and still records its STOP', async () => {
    const o = await ownerWithLink();
    for (const phone of ['+449098790000', '+979123456789', '+18005550100']) {
      expect(await receiveText(t, phone, o.number, 'JOIN Mallory')).toMatchObject({ action: 'ignored' });
      expect(await receiveText(t, phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
      expect(await receiveText(t, phone, o.number, 'START')).toMatchObject({ action: 'opted_in' });
      expect(await receiveText(t, phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
      expect(await traces(phone)).toEqual({ requests: 0, texts: 0 });
    }
  });
});

describe('caps per business on unconfirmed confirmation texts', () => {
  it.each([
    [{ unconfirmedToday: 0, freePlaces: null }, true],
    [{ unconfirmedToday: UNCONFIRMED_TEXTS_PER_DAY - 1, freePlaces: null }, true],
    [{ unconfirmedToday: UNCONFIRMED_TEXTS_PER_DAY, freePlaces: null }, false],
    [{ unconfirmedToday: UNCONFIRMED_TEXTS_PER_DAY - 1, freePlaces: 100 }, true],
    [{ unconfirmedToday: UNCONFIRMED_TEXTS_PER_DAY, freePlaces: 100 }, false],
    [{ unconfirmedToday: 9, freePlaces: 5 }, true],
    [{ unconfirmedToday: 10, freePlaces: 5 }, false],
    [{ unconfirmedToday: 0, freePlaces: 1 }, true],
    [{ unconfirmedToday: 2, freePlaces: 1 }, false],
    [{ unconfirmedToday: 0, freePlaces: 0 }, false],
  ])('%o: %s', (state, allowed) => {
    expect(mayTextConfirmation(state)).toBe(allowed);
  });

  it(`sends at most ${UNCONFIRMED_TEXTS_PER_DAY} a day under a parallel burst from as many addresses`, async () => {
    const o = await ownerWithLink('growth');
    const phones = Array.from({ length: 70 }, (_, i) => customerPhone(2000 + i));
    const answers = await burst(t.app, phones.length, (i) => ({
      method: 'POST',
      url: `/api/v1/join/${o.slug}`,
      payload: { name: `Caller ${i}`, phone: phones[i], consent: true },
      remoteAddress: uniqueIp(),
    }));
    expect(statusCounts(answers)).toEqual({
      200: UNCONFIRMED_TEXTS_PER_DAY,
      403: 70 - UNCONFIRMED_TEXTS_PER_DAY,
    });
    const over = answers.find((answer) => answer.statusCode === 403)!;
    expect(over.json().message).toBe(joinWords.busy('Bella Salon'));
    const sent = await t.database.db
      .select()
      .from(messages)
      .where(
        and(eq(messages.userId, o.id), eq(messages.direction, 'out'), inArray(messages.toNumber, phones)),
      );
    expect(sent).toHaveLength(UNCONFIRMED_TEXTS_PER_DAY);

    // A day later the oldest have left the window.
    t.clock.advance(24 * 60 * 60 * 1000 + 1);
    expect((await join(o.slug, { name: 'Late', phone: customerPhone(2100), consent: true })).statusCode).toBe(
      200,
    );
  });

  it('never sends more than twice the free places on the list, under a parallel burst', async () => {
    const o = await ownerWithLink('free_trial'); // 25 places
    await importCustomers(t, o.token, 2200, 20); // 5 free
    const phones = Array.from({ length: 20 }, (_, i) => customerPhone(2300 + i));
    const answers = await burst(t.app, phones.length, (i) => ({
      method: 'POST',
      url: `/api/v1/join/${o.slug}`,
      payload: { name: `Caller ${i}`, phone: phones[i], consent: true },
      remoteAddress: uniqueIp(),
    }));
    expect(statusCounts(answers)).toEqual({ 200: 10, 403: 10 });
    let texted = 0;
    for (const phone of phones) texted += (await textsTo(phone)).length;
    expect(texted).toBe(10);
    // The JOIN text path meets the same cap: nothing is sent.
    const phone = customerPhone(2350);
    expect(await receiveText(t, phone, o.number, 'JOIN')).toMatchObject({ action: 'ignored' });
    expect(await textsTo(phone)).toEqual([]);
  });
});

describe('per-address limits', () => {
  it('counts an IPv6 client by its /64 and an IPv4-mapped address as IPv4', async () => {
    const o = await ownerWithLink();
    const send = (n: number, ip: string) =>
      join(o.slug, { name: 'V6', phone: customerPhone(2400 + n), consent: true }, ip);
    // Three sign-ups without a proof from one /64, each from another of its addresses …
    expect((await send(1, '2001:db8:24:1::1')).statusCode).toBe(200);
    expect((await send(2, '2001:db8:24:1::2')).statusCode).toBe(200);
    expect((await send(3, '2001:db8:24:1:abcd:ef01:2345:6789')).statusCode).toBe(200);
    // … and the fourth from yet another address of it is asked for one.
    const fourth = await send(4, '2001:db8:24:1::ffff');
    expect(fourth.statusCode).toBe(400);
    expect(fourth.json().errors).toEqual({ altcha: joinWords.proofRequired });
    // The next /64 is another client.
    expect((await send(5, '2001:db8:24:2::1')).statusCode).toBe(200);

    for (let n = 0; n < 3; n += 1) expect((await send(10 + n, '203.0.113.240')).statusCode).toBe(200);
    expect((await send(13, '::ffff:203.0.113.240')).statusCode).toBe(400);
  });

  it('throttles unknown join links per address: past 20 misses an hour, every link answers 429', async () => {
    const o = await ownerWithLink();
    const ip = '2001:db8:25:1::1';
    const get = (slug: string, from = ip) =>
      t.app.inject({ method: 'GET', url: `/api/v1/join/${slug}`, remoteAddress: from });
    for (let n = 0; n < 20; n += 1) expect((await get(`bella-salon-${n}`)).statusCode).toBe(404);
    const next = await get('bella-salon-21', '2001:db8:25:1::beef');
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(0);
    expect((await get(o.slug)).statusCode).toBe(429);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/qr.png`, remoteAddress: ip }))
        .statusCode,
    ).toBe(429);
    // Another address is not affected.
    expect((await get(o.slug, '2001:db8:25:2::1')).statusCode).toBe(200);
  });

  it('throttles a burst of misses like a sequence', async () => {
    const answers = await burst(t.app, 40, (i) => ({
      method: 'GET',
      url: `/api/v1/join/nobody-${i}`,
      remoteAddress: '2001:db8:26:1::1',
    }));
    expect(statusCounts(answers)).toEqual({ 404: 20, 429: 20 });
  });

  it('keeps links made before issue 24 (20-bit tails) working', async () => {
    const o = await owner(t, { plan: 'growth' });
    await t.database.db.update(users).set({ joinSlug: 'bella-salon-k3x9a' }).where(eq(users.id, o.id));
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/join/bella-salon-k3x9a' })).statusCode).toBe(
      200,
    );
  });
});

describe('a proof that a person is there, after three sign-ups an hour from one address', () => {
  it('asks for it on the page and the fourth sign-up, takes a solved one once, and refuses others', async () => {
    const o = await ownerWithLink();
    const other = await ownerWithLink();
    const ip = '198.51.100.90';
    const page = async () =>
      (await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}`, remoteAddress: ip })).json().data;
    const send = (n: number, altcha?: string, from = ip) =>
      join(o.slug, { name: 'P', phone: customerPhone(2500 + n), consent: true, altcha }, from);

    expect((await page()).proofRequired).toBe(false);
    for (let n = 0; n < 3; n += 1) expect((await send(n)).statusCode).toBe(200);
    expect((await page()).proofRequired).toBe(true);
    const without = await send(3);
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      message: joinWords.proofRequired,
      errors: { altcha: joinWords.proofRequired },
    });
    expect(await textsTo(customerPhone(2503))).toEqual([]);

    const proof = await solvedProof(t, o.slug, ip);
    expect((await send(4, proof)).statusCode).toBe(200);
    expect(await textsTo(customerPhone(2504))).toEqual([texts.joinRequest('Bella Salon')]);

    // (From other addresses, to stay within the address's ten sign-ups an hour: a proof is checked whenever
    // one is sent.)
    const refused = async (altcha: string, n: number) => {
      const answer = await send(n, altcha, uniqueIp());
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json().errors).toEqual({ altcha: joinWords.proofFailed });
      expect(await textsTo(customerPhone(2500 + n))).toEqual([]);
    };
    // Used once already.
    await refused(proof, 5);
    // Solved for another business's link.
    await refused(await solvedProof(t, other.slug, ip), 6);
    // Not solved: the derived key is wrong.
    const decoded = JSON.parse(Buffer.from(await solvedProof(t, o.slug, ip), 'base64').toString());
    decoded.solution.derivedKey = '00'.repeat(32);
    await refused(Buffer.from(JSON.stringify(decoded)).toString('base64'), 7);
    // Tampered: an easier challenge than the one signed.
    const tampered = JSON.parse(Buffer.from(await solvedProof(t, o.slug, ip), 'base64').toString());
    tampered.challenge.parameters.cost = 2;
    await refused(Buffer.from(JSON.stringify(tampered)).toString('base64'), 8);
    // Too old: solved, then sent eleven minutes later.
    const stale = await solvedProof(t, o.slug, ip);
    t.clock.advance(11 * 60 * 1000);
    await refused(stale, 9);
    // Not even JSON.
    await refused('bm90IGEgcHJvb2Y=', 10);
  });

  it('takes a solved proof once even when it is sent twice at the same moment', async () => {
    const o = await ownerWithLink();
    const ip = '198.51.100.91';
    for (let n = 0; n < 3; n += 1)
      await join(o.slug, { name: 'P', phone: customerPhone(2600 + n), consent: true }, ip);
    const proof = await solvedProof(t, o.slug, ip);
    const answers = await burst(t.app, 5, (i) => ({
      method: 'POST',
      url: `/api/v1/join/${o.slug}`,
      payload: { name: 'P', phone: customerPhone(2610 + i), consent: true, altcha: proof },
      remoteAddress: ip,
    }));
    expect(statusCounts(answers)).toEqual({ 200: 1, 400: 4 });
  });

  it('issues challenges signed by the server, no-store, a few per address an hour', async () => {
    const o = await ownerWithLink();
    const ip = '198.51.100.92';
    const get = () =>
      t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/challenge`, remoteAddress: ip });
    const first = await get();
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({
      parameters: { algorithm: 'PBKDF2/SHA-256', data: { slug: o.slug } },
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (let n = 1; n < 30; n += 1) expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(429);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/join/nobody/challenge', remoteAddress: uniqueIp() }))
        .statusCode,
    ).toBe(404);
  });
});

describe('STOP is kept for join numbers', () => {
  it('gives a number that STOPped its confirmation no new "Reply YES", with the usual answer', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(2700);
    expect((await join(o.slug, { name: 'Sam', phone, consent: true })).statusCode).toBe(200);
    expect(await receiveText(t, phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
    const before = await textsTo(phone);
    expect(before).toEqual([texts.joinRequest('Bella Salon'), texts.joinStopped('Bella Salon')]);

    const again = await join(o.slug, { name: 'Sam', phone, consent: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toBe(joinWords.checkYourTexts('Bella Salon'));
    expect(await textsTo(phone)).toEqual(before);
    expect(await t.database.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toHaveLength(1);

    // The phone's own JOIN is its consent again ("Reply JOIN to start again").
    expect(await receiveText(t, phone, o.number, 'JOIN')).toMatchObject({ action: 'join_requested' });
    expect((await textsTo(phone)).at(-1)).toBe(texts.joinRequest('Bella Salon'));
  });

  it('keeps a STOP from a number that never joined, until its START', async () => {
    const o = await ownerWithLink();
    const phone = customerPhone(2710);
    expect(await receiveText(t, phone, o.number, 'STOP')).toMatchObject({ action: 'opted_out' });
    expect((await join(o.slug, { name: 'Eve', phone, consent: true })).statusCode).toBe(200);
    expect(await textsTo(phone)).toEqual([]);
    expect(await receiveText(t, phone, o.number, 'START')).toMatchObject({ action: 'opted_in' });
    expect((await join(o.slug, { name: 'Eve', phone, consent: true })).statusCode).toBe(200);
    expect((await textsTo(phone)).at(-1)).toBe(texts.joinRequest('Bella Salon'));
  });
});

describe('the QR code', () => {
  it('is drawn once per link and then served from memory', async () => {
    const o = await ownerWithLink();
    const png = vi.spyOn(QRCode, 'toBuffer');
    const svg = vi.spyOn(QRCode, 'toString');
    try {
      for (let n = 0; n < 3; n += 1) {
        const answer = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/qr.png` });
        expect(answer.statusCode).toBe(200);
        expect(answer.rawPayload.subarray(1, 4).toString()).toBe('PNG');
        expect((await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}/qr.svg` })).body).toMatch(
          /^<svg/,
        );
      }
      expect(png).toHaveBeenCalledTimes(1);
      expect(svg).toHaveBeenCalledTimes(1);
    } finally {
      png.mockRestore();
      svg.mockRestore();
    }
  });
});
