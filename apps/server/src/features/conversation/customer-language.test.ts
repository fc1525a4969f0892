import { randomUUID } from 'node:crypto';
import { customerWords, formatSlotTime, plainLetters, renderTemplate, textAsSent } from '@waitlist/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { customers, joinRequests, messages, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText, textBodiesTo } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, customerPhone, owner } from '../waitlist/waitlist.test-helpers.ts';

/** Issue 28: every text goes out in the customer's language; ESPAÑOL / ENGLISH switch it; UNIRME joins in Spanish. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const BUSINESS = 'Sunny Cuts';
const [en, es] = [customerWords('en'), customerWords('es')];
const reply = (from: string, to: string, text: string) => receiveText(t, from, to, text);
const textsTo = (phone: string) => textBodiesTo(t, phone);
let n = 2800;

/** A business named BUSINESS with Ana (Spanish) and Ben (English) on its waitlist. */
async function business() {
  const o = await owner(t, { plan: 'growth' });
  await t.database.db.update(users).set({ businessName: BUSINESS }).where(eq(users.id, o.id));
  const spanish = { name: 'Ana Ruiz', language: 'es' };
  const ana = await addCustomer(t, o.token, ++n, spanish);
  const ben = await addCustomer(t, o.token, ++n, { name: 'Ben Cole' });
  return { o, ana, ben };
}

async function openSlot(token: string) {
  const startsAt = new Date(t.clock.now().getTime() + 3 * 3_600_000);
  const response = await call(t, token, 'POST', '/openings', {
    startsAt: startsAt.toISOString(),
    durationMinutes: 45,
    service: 'Haircut',
    priceCents: 6500,
    mode: 'all',
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().data.id as string, startsAt };
}

const languageOf = async (id: string) =>
  (await t.database.db.select().from(customers).where(eq(customers.id, id)))[0]!.language;

describe('an opening told in each customer’s language', () => {
  it('alerts Ana in Spanish and Ben in English; Ana’s "Sí, lo quiero" wins in Spanish, Ben is told in English', async () => {
    const { o, ana, ben } = await business();
    const [row] = await t.database.db.select().from(users).where(eq(users.id, o.id));
    const zone = row!.timeZone;
    const { startsAt } = await openSlot(o.token);
    const values = (language: 'en' | 'es', name: string) => ({
      name,
      business: BUSINESS,
      time: formatSlotTime(startsAt, zone, language),
    });
    const alert = (language: 'en' | 'es', name: string) => {
      const v = values(language, name);
      return renderTemplate(customerWords(language).templates.cancellation_alert, {
        ...v,
        time: `${v.time} (Haircut)`,
      });
    };
    // The first text carries the opt-out line in the customer's language.
    expect(await textsTo(ana.phone)).toEqual([
      textAsSent(alert('es', 'Ana'), { firstText: true, locale: 'es' }),
    ]);
    expect(await textsTo(ben.phone)).toEqual([
      textAsSent(alert('en', 'Ben'), { firstText: true, locale: 'en' }),
    ]);
    expect((await textsTo(ana.phone))[0]).not.toContain('Reply STOP');

    expect(await reply(ana.phone, o.number, 'Sí, lo quiero')).toMatchObject({ action: 'reply' });
    expect((await textsTo(ana.phone)).at(-1)).toBe(renderTemplate(es.templates.claimed, values('es', 'Ana')));
    expect((await textsTo(ben.phone)).at(-1)).toBe(
      renderTemplate(en.templates.already_filled, values('en', 'Ben')),
    );
  });

  it('an unnamed business is "Tu negocio" to Ana and "Your business" to Ben, in the alert and after the claim', async () => {
    const { o, ana, ben } = await business();
    await t.database.db.update(users).set({ businessName: '' }).where(eq(users.id, o.id));
    await openSlot(o.token);
    expect((await textsTo(ana.phone))[0]).toContain(`cita libre en ${es.texts.unnamedBusiness}:`);
    expect((await textsTo(ben.phone))[0]).toContain(`a spot just opened at ${en.texts.unnamedBusiness}:`);
    await reply(ben.phone, o.number, 'yes');
    expect((await textsTo(ben.phone)).at(-1)).toContain(`You're booked at Your business for`);
    expect((await textsTo(ana.phone)).at(-1)).toContain(`ya apartaron la cita de`);
    expect((await textsTo(ana.phone)).at(-1)).toContain(` en Tu negocio.`);
  });
});

describe('answers in the customer’s language', () => {
  it('HELP / AYUDA, STOP / ALTO and START confirm in Ana’s Spanish and Ben’s English', async () => {
    const { o, ana, ben } = await business();
    await reply(ana.phone, o.number, 'AYUDA');
    await reply(ben.phone, o.number, 'HELP');
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.help(BUSINESS));
    expect((await textsTo(ben.phone)).at(-1)).toBe(en.texts.help(BUSINESS));
    await reply(ana.phone, o.number, 'STOP');
    await reply(ben.phone, o.number, 'STOP');
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.stopConfirmation(BUSINESS));
    expect((await textsTo(ben.phone)).at(-1)).toBe(en.texts.stopConfirmation(BUSINESS));
    await reply(ana.phone, o.number, 'START');
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.startConfirmation(BUSINESS));
  });

  it('the automatic answer, by the transaction and by the one statement, picks the customer’s language', async () => {
    const { o, ana, ben } = await business();
    // The first answer: no verdict yet, the transaction answers.
    await reply(ana.phone, o.number, '¿Tienen algo el viernes?');
    await reply(ben.phone, o.number, 'Anything Friday?');
    const first = (language: 'en' | 'es') =>
      textAsSent(customerWords(language).texts.autoAnswer(BUSINESS), { firstText: true, locale: language });
    expect(await textsTo(ana.phone)).toEqual([first('es')]);
    expect(await textsTo(ben.phone)).toEqual([first('en')]);
    // With the verdict 'answer' stored (as the policy writes it a day later): the one statement answers.
    await t.database.db
      .update(customers)
      .set({
        replyOnClaim: 'quiet',
        replyOnText: 'answer',
        replyTextUntil: null,
        replyPush: false,
        autoAnsweredAt: null,
      })
      .where(eq(customers.userId, o.id));
    const transactions = vi.spyOn(t.database.db, 'transaction');
    try {
      for (const [phone, text] of [
        [ana.phone, 'Hola otra vez'],
        [ben.phone, 'Hello again'],
      ] as const) {
        const providerMessageId = `in-${randomUUID()}`;
        await t.app.services.conversation.receiveInbound({
          from: phone,
          to: o.number,
          text,
          providerMessageId,
        });
      }
      expect(transactions.mock.calls).toHaveLength(0);
    } finally {
      transactions.mockRestore();
    }
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.autoAnswer(BUSINESS));
    expect((await textsTo(ben.phone)).at(-1)).toBe(en.texts.autoAnswer(BUSINESS));
  });

  it('backing out of a won slot is answered in Spanish', async () => {
    const { o, ana } = await business();
    await openSlot(o.token);
    await reply(ana.phone, o.number, 'sí');
    await reply(ana.phone, o.number, 'no puedo ir');
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.backedOut(BUSINESS));
  });
});

describe('switching language by text', () => {
  it('ESPAÑOL makes Ben Spanish, answered in Spanish; ENGLISH makes him English again, answered in English', async () => {
    const { o, ben } = await business();
    expect(await reply(ben.phone, o.number, 'ESPAÑOL')).toMatchObject({ action: 'reply' });
    expect(await languageOf(ben.id)).toBe('es');
    expect((await textsTo(ben.phone)).at(-1)).toBe(
      textAsSent(es.texts.languageSwitched(BUSINESS), { firstText: false }),
    );
    await openSlot(o.token);
    expect((await textsTo(ben.phone)).at(-1)).toMatch(/^Hola Ben/);
    await reply(ben.phone, o.number, 'english');
    expect(await languageOf(ben.id)).toBe('en');
    expect((await textsTo(ben.phone)).at(-1)).toBe(en.texts.languageSwitched(BUSINESS));
  });

  it('from a stranger it changes nothing and answers nothing', async () => {
    const { o } = await business();
    const stranger = customerPhone(2993);
    expect(await reply(stranger, o.number, 'ESPAÑOL')).toMatchObject({ action: 'ignored' });
    expect(await textsTo(stranger)).toEqual([]);
  });
});

describe('joining by text in Spanish', () => {
  it('UNIRME makes a Spanish request: the request and the welcome are Spanish, and so is the customer', async () => {
    const { o } = await business();
    const phone = customerPhone(2991);
    expect(await reply(phone, o.number, 'UNIRME Lucía Pérez')).toMatchObject({ action: 'join_requested' });
    const [request] = await t.database.db
      .select()
      .from(joinRequests)
      .where(and(eq(joinRequests.userId, o.id), eq(joinRequests.phone, phone)));
    expect(request).toMatchObject({ language: 'es', name: 'Lucía Pérez' });
    expect(await textsTo(phone)).toEqual([es.texts.joinRequest(BUSINESS)]);
    expect(await reply(phone, o.number, 'SÍ')).toMatchObject({ action: 'joined' });
    expect((await textsTo(phone)).at(-1)).toBe(es.texts.joinWelcome(BUSINESS));
    const [customer] = await t.database.db
      .select()
      .from(customers)
      .where(and(eq(customers.userId, o.id), eq(customers.phone, phone)));
    expect(customer?.language).toBe('es');
  });

  it('JOIN stays English', async () => {
    const { o } = await business();
    const phone = customerPhone(2992);
    await reply(phone, o.number, 'JOIN Sam');
    expect(await textsTo(phone)).toEqual([en.texts.joinRequest(BUSINESS)]);
    const out = await t.database.db.select().from(messages).where(eq(messages.toNumber, phone));
    expect(out).toHaveLength(1);
  });
});

describe('plain letters (the business’s setting)', () => {
  it('on: every Spanish text goes without á í ó ú (the time too), by either way; English ones are untouched', async () => {
    const { o, ana, ben } = await business();
    await t.database.db.update(users).set({ plainSpanishLetters: true }).where(eq(users.id, o.id));
    const [row] = await t.database.db.select().from(users).where(eq(users.id, o.id));
    const { startsAt } = await openSlot(o.token);
    const time = `${formatSlotTime(startsAt, row!.timeZone, 'es')} (Haircut)`;
    const alert = renderTemplate(es.templates.cancellation_alert, { name: 'Ana', business: BUSINESS, time });
    // Since issue 39 the default Spanish words hold no á í ó ú; a Saturday's "sáb" still would.
    const [sent] = await textsTo(ana.phone);
    expect(sent).toBe(plainLetters(textAsSent(alert, { firstText: true, locale: 'es' })));
    expect(sent).not.toMatch(/[áíóú]/);
    expect((await textsTo(ben.phone))[0]).toContain(formatSlotTime(startsAt, row!.timeZone, 'en'));
    await reply(ana.phone, o.number, 'ALTO');
    expect((await textsTo(ana.phone)).at(-1)).toBe(plainLetters(es.texts.stopConfirmation(BUSINESS)));
    await reply(ana.phone, o.number, 'START');
    // The one statement's automatic answer too.
    await t.database.db
      .update(customers)
      .set({
        replyOnClaim: 'quiet',
        replyOnText: 'answer',
        replyTextUntil: null,
        replyPush: false,
        autoAnsweredAt: null,
      })
      .where(eq(customers.id, ana.id));
    const transactions = vi.spyOn(t.database.db, 'transaction');
    try {
      await t.app.services.conversation.receiveInbound({
        from: ana.phone,
        to: o.number,
        text: 'Hola',
        providerMessageId: `in-${randomUUID()}`,
      });
      expect(transactions.mock.calls).toHaveLength(0);
    } finally {
      transactions.mockRestore();
    }
    expect((await textsTo(ana.phone)).at(-1)).toBe(plainLetters(es.texts.autoAnswer(BUSINESS)));
  });

  it('off (the default): Spanish texts keep their accents', async () => {
    const { o, ana } = await business();
    await reply(ana.phone, o.number, 'ALTO');
    expect((await textsTo(ana.phone)).at(-1)).toBe(es.texts.stopConfirmation(BUSINESS));
    // Issue 39: the default Spanish texts are written in GSM-7, so they cost the same with the setting off.
    expect(es.texts.stopConfirmation(BUSINESS)).not.toMatch(/[áíóú]/);
  });
});
