import { customerWords, type MessageTemplateKey, waitlistMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageTemplates, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { templatesOf } from './waitlist.repo.ts';
import { call, owner } from './waitlist.test-helpers.ts';

/** Issue 28: each owner template in English and Spanish, and the business's "plain letters" setting. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Template = { key: MessageTemplateKey; language: string; body: string; isDefault: boolean };
const templatesOfOwner = async (token: string): Promise<Template[]> =>
  (await call(t, token, 'GET', '/message-templates')).json().data;
const storedRows = (userId: string) =>
  t.database.db.select().from(messageTemplates).where(eq(messageTemplates.userId, userId));

describe('templates per language', () => {
  it('answers every template in English and Spanish, the Spanish defaults from the catalogue', async () => {
    const o = await owner(t);
    const all = await templatesOfOwner(o.token);
    expect(all).toHaveLength(10);
    const spanish = all.filter((template) => template.language === 'es');
    expect(spanish.map(({ key, body, isDefault }) => ({ key, body, isDefault }))).toEqual(
      Object.entries(customerWords('es').templates).map(([key, body]) => ({ key, body, isDefault: true })),
    );
    expect(spanish[0]!.body).not.toBe(customerWords('en').templates[spanish[0]!.key]);
  });

  it('saves the Spanish version apart from the English one, and the repo reads each language', async () => {
    const o = await owner(t);
    const put = await call(t, o.token, 'PUT', '/message-templates/cancellation_alert', {
      body: '¡Hola {name}! Hay un hueco {time} en {business}. ¿Lo quieres? Responde SÍ.',
      language: 'es',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ key: 'cancellation_alert', language: 'es', isDefault: false });
    const all = await templatesOfOwner(o.token);
    const alertIn = (language: string) =>
      all.find((template) => template.key === 'cancellation_alert' && template.language === language)!;
    expect(alertIn('es')).toMatchObject({ isDefault: false, body: expect.stringContaining('¿Lo quieres?') });
    expect(alertIn('en')).toEqual({
      key: 'cancellation_alert',
      language: 'en',
      body: customerWords().templates.cancellation_alert,
      isDefault: true,
    });

    // English when no language is given (the callers that predate issue 28), and an update keeps one row.
    await call(t, o.token, 'PUT', '/message-templates/cancellation_alert', {
      body: 'Opening {time}, {name}',
    });
    await call(t, o.token, 'PUT', '/message-templates/cancellation_alert', { body: 'Slot {time}, {name}' });
    const rows = await storedRows(o.id);
    expect(rows.map((row) => `${row.language}:${row.body}`).sort()).toEqual([
      'en:Slot {time}, {name}',
      'es:¡Hola {name}! Hay un hueco {time} en {business}. ¿Lo quieres? Responde SÍ.',
    ]);
    expect((await templatesOf(t.database.db, o.id)).cancellation_alert.body).toBe('Slot {time}, {name}');
    expect((await templatesOf(t.database.db, o.id, 'es')).cancellation_alert.body).toContain('Hay un hueco');
    expect((await templatesOf(t.database.db, o.id, 'es')).claimed).toEqual({
      body: customerWords('es').templates.claimed,
      isDefault: true,
    });
  });

  it('refuses a language other than English or Spanish with the catalogue message, writing nothing', async () => {
    const o = await owner(t);
    const answer = await call(t, o.token, 'PUT', '/message-templates/reminder', {
      body: 'Hi',
      language: 'fr',
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toContain(waitlistMessages.invalidLanguage);
    expect(await storedRows(o.id)).toEqual([]);
  });
});

describe('plain letters for Spanish texts', () => {
  it('is off by default, and the owner turns it on and off', async () => {
    const o = await owner(t);
    const read = async () => (await call(t, o.token, 'GET', '/settings/plain-letters')).json().data;
    expect(await read()).toEqual({ plainSpanishLetters: false });
    const on = await call(t, o.token, 'PUT', '/settings/plain-letters', { plainSpanishLetters: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      data: { plainSpanishLetters: true },
      message: waitlistMessages.plainLettersUpdated,
    });
    expect(await read()).toEqual({ plainSpanishLetters: true });
    const [row] = await t.database.db.select().from(users).where(eq(users.id, o.id));
    expect(row!.plainSpanishLetters).toBe(true);
    await call(t, o.token, 'PUT', '/settings/plain-letters', { plainSpanishLetters: false });
    expect(await read()).toEqual({ plainSpanishLetters: false });
  });

  it('refuses a body that is not true or false, leaving the setting as it was', async () => {
    const o = await owner(t);
    const bad = await call(t, o.token, 'PUT', '/settings/plain-letters', { plainSpanishLetters: 'yes' });
    expect(bad.statusCode).toBe(400);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, o.id));
    expect(row!.plainSpanishLetters).toBe(false);
  });
});
