import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner, textsTo as textsOf } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 39, a winner who backs out: told so by text in their language (released by the owner, with the
 * owner's line, or backing out by text), never counted as a claim by the offer order, and the opening page
 * after it in one state per customer, waves the owner can follow, told-filled customers asked again first.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

let n = 3900;
const next = () => {
  n += 1;
  return n;
};
const HOUR = 3_600_000;
const textsTo = (phone: string) => textsOf(t, phone);
const reply = (from: string, to: string, text: string) =>
  t.app.services.conversation.receiveInbound({
    from,
    to,
    text,
    providerMessageId: `backout-${from}-${next()}`,
  });
const speaks = (id: string, language: 'en' | 'es') =>
  t.database.db.update(customers).set({ language }).where(eq(customers.id, id));

type OfferView = { name: string; outcome: string; wave: number; reason: string; status: string };
const byName = (offers: OfferView[]) => Object.fromEntries(offers.map((offer) => [offer.name, offer]));

async function filledSlot(mode: 'all' | 'waves' = 'all') {
  const o = await owner(t, { plan: 'growth' });
  const ava = await addCustomer(t, o.token, next(), { name: 'Ava Winner' });
  const isa = await addCustomer(t, o.token, next(), { name: 'Isabella Next' });
  const opening = (
    await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 5 * HOUR).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
      mode,
      ...(mode === 'waves' ? { waveSize: 1, claimWindowMinutes: 10 } : {}),
    })
  ).json().data;
  return { o, ava, isa, opening };
}

describe('a released winner is told (issue 39, item 1)', () => {
  it('texts the winner, in Spanish, the words the owner saw, with the owner’s line', async () => {
    const { o, ava, opening } = await filledSlot();
    await speaks(ava.id, 'es');
    await reply(ava.phone, o.number, 'SI');
    const before = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(before.status).toBe('filled');
    expect(before.releaseText).toMatch(/^.+: Lo sentimos, Ava, tu cita de .+ ya no queda apartada para ti\./);
    const texted = (await textsTo(ava.phone)).length;

    const released = await call(t, o.token, 'POST', `/openings/${opening.id}/release`, {
      note: 'Te llamamos para otra cita.',
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data.releaseText).toBeNull();
    const texts = await textsTo(ava.phone);
    expect(texts).toHaveLength(texted + 1);
    expect(texts.at(-1)).toBe(`${before.releaseText}\nTe llamamos para otra cita.`);
    expect(byName(released.json().data.offers)['Ava Winner']).toMatchObject({
      status: 'released',
      outcome: 'released',
    });
  });

  it('refuses a line too long or of several lines, and releases nothing then', async () => {
    const { o, ava, opening } = await filledSlot();
    await reply(ava.phone, o.number, 'YES');
    for (const note of ['x'.repeat(161), 'one\ntwo']) {
      const refused = await call(t, o.token, 'POST', `/openings/${opening.id}/release`, { note });
      expect(refused.statusCode, refused.body).toBe(400);
    }
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(detail).toMatchObject({ status: 'filled', winner: { name: 'Ava Winner' } });
  });

  it('texts nothing to a winner who opted out, and still releases', async () => {
    const { o, ava, isa, opening } = await filledSlot();
    await reply(ava.phone, o.number, 'YES');
    await t.database.db.update(customers).set({ optedOut: true }).where(eq(customers.id, ava.id));
    const texted = (await textsTo(ava.phone)).length;
    const released = await call(t, o.token, 'POST', `/openings/${opening.id}/release`, {});
    expect(released.statusCode, released.body).toBe(200);
    expect(await textsTo(ava.phone)).toHaveLength(texted);
    expect(byName(released.json().data.offers)['Isabella Next']?.outcome).toBe('texted');
    expect((await textsTo(isa.phone)).length).toBeGreaterThan(0);
  });

  it('confirms a back-out by text in the customer’s language', async () => {
    const { o, ava, opening } = await filledSlot();
    await speaks(ava.id, 'es');
    await reply(ava.phone, o.number, 'SI');
    await reply(ava.phone, o.number, 'Lo siento, no puedo ir');
    const detail = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(detail.status).toBe('open');
    expect(byName(detail.offers)['Ava Winner']).toMatchObject({ status: 'declined', outcome: 'backed_out' });
    expect((await textsTo(ava.phone)).at(-1)).toMatch(/liberamos esa cita/);
  });
});

describe('a back-out is not a claim (issue 39, item 2)', () => {
  it('ranks a newcomer before customers who backed out, and says what happened', async () => {
    const { o, ava, isa: sofia, opening } = await filledSlot();
    // Sofia wins and backs out by text; Ava is asked again, wins, and the owner releases her.
    await reply(sofia.phone, o.number, 'YES');
    await reply(sofia.phone, o.number, "Sorry, I can't make it");
    await reply(ava.phone, o.number, 'YES');
    const filled = (await call(t, o.token, 'GET', `/openings/${opening.id}`)).json().data;
    expect(filled.winner.name).toBe('Ava Winner');
    expect((await call(t, o.token, 'POST', `/openings/${opening.id}/release`, {})).statusCode).toBe(200);
    await addCustomer(t, o.token, next(), { name: 'Nina New' });

    const preview = await call(t, o.token, 'POST', '/openings/preview', {
      startsAt: new Date(t.clock.now().getTime() + 26 * HOUR).toISOString(),
      durationMinutes: 30,
      service: 'Cut',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json().data.offers as { name: string; rank: number; reason: string }[];
    const rankOf = Object.fromEntries(planned.map((offer) => [offer.name, offer]));
    expect(rankOf['Nina New']!.rank).toBe(1);
    expect(rankOf['Isabella Next']!.reason).toMatch(/backed out of 1 of 1 offer/);
    expect(rankOf['Ava Winner']!.reason).toMatch(/released by you once/);
    for (const name of ['Isabella Next', 'Ava Winner']) expect(rankOf[name]!.reason).not.toMatch(/claimed/);
  });
});

describe('the opening page after a back-out (issue 39, item 5)', () => {
  it('asks again first those told it was filled, in waves numbered on, one state and a current reason each', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ann = await addCustomer(t, o.token, next(), { name: 'Ann First' });
    const ben = await addCustomer(t, o.token, next(), { name: 'Ben Second' });
    const cat = await addCustomer(t, o.token, next(), { name: 'Cat Winner' });
    await addCustomer(t, o.token, next(), { name: 'Dee Never' });
    const opening = (
      await call(t, o.token, 'POST', '/openings', {
        startsAt: new Date(t.clock.now().getTime() + 8 * HOUR).toISOString(),
        durationMinutes: 30,
        service: 'Cut',
        mode: 'waves',
        waveSize: 1,
        claimWindowMinutes: 10,
      })
    ).json().data;
    for (let wave = 2; wave <= 3; wave += 1) {
      t.clock.advance(10 * 60_000);
      await t.app.openingsWorker.runOnce();
    }
    await reply(cat.phone, o.number, 'YES');
    expect(await textsTo(ann.phone)).toHaveLength(2); // the alert, then "it's been filled"
    expect(await textsTo(ben.phone)).toHaveLength(2);
    t.clock.advance(60_000);

    const released = await call(t, o.token, 'POST', `/openings/${opening.id}/release`, {});
    expect(released.statusCode, released.body).toBe(200);
    const offers = byName(released.json().data.offers as OfferView[]);
    const view = (name: string) => {
      const { wave, outcome, reason } = offers[name] as OfferView;
      const { sentAt } = offers[name] as OfferView & { sentAt: string | null };
      return { wave, outcome, reason, texted: sentAt !== null };
    };
    expect(view('Ann First')).toEqual({
      wave: 4,
      outcome: 'texted',
      reason: '1st: told it was filled, asked again first',
      texted: true,
    });
    expect(view('Ben Second')).toEqual({
      wave: 5,
      outcome: 'next_wave',
      reason: '2nd: told it was filled, asked again first',
      texted: false,
    });
    expect(view('Dee Never')).toMatchObject({ wave: 6, outcome: 'next_wave', texted: false });
    expect(view('Dee Never').reason).toMatch(/^3rd: /);
    expect(view('Cat Winner')).toMatchObject({
      wave: 3,
      outcome: 'released',
      reason: '4th: released by you, not asked again',
    });
    expect(await textsTo(ann.phone)).toHaveLength(3); // told it reopened, first
    expect(await textsTo(ben.phone)).toHaveLength(2);
  });
});
