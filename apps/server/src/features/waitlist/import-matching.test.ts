import { offerMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { call, customerPhone, owner } from './waitlist.test-helpers.ts';

/** Issue 39: a CSV's service and stylist names as owners type them, and what each row got in the preview. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function created(token: string, path: string, payload: object) {
  const response = await call(t, token, 'POST', path, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; name: string };
}

describe('CSV service and stylist names, punctuation and case ignored (issue 39)', () => {
  it('matches "womens cut" to "Women\'s cut", asks about a near miss, and shows what each row got', async () => {
    const o = await owner(t, { plan: 'growth' });
    const cut = await created(o.token, '/services', { name: "Women's cut", durationMinutes: 45 });
    const blowout = await created(o.token, '/services', { name: 'Blowout', durationMinutes: 30 });
    const priya = await created(o.token, '/staff', { name: 'Priya' });
    const csv = [
      'name,phone,service,stylist,language',
      `Ava Stone,${customerPhone(901)},womens cut,priya,Spanish`,
      `Bea Lin,${customerPhone(902)},WOMENS-CUT,,`,
      `Cal Diaz,${customerPhone(903)},Blowot,Priya,`,
      `Dee Wu,${customerPhone(904)},  blow out ,PRIYA.,en`,
    ].join('\n');
    const preview = await call(t, o.token, 'POST', '/waitlist/import/preview', { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.rows).toEqual([
      expect.objectContaining({ error: null, service: "Women's cut", staff: 'Priya', language: 'es' }),
      expect.objectContaining({ error: null, service: "Women's cut", staff: null, language: 'en' }),
      expect.objectContaining({
        error: offerMessages.didYouMean(offerMessages.unknownService('Blowot'), 'Blowout'),
        service: null,
      }),
      expect.objectContaining({ error: null, service: 'Blowout', staff: 'Priya', language: 'en' }),
    ]);
    expect(offerMessages.didYouMean(offerMessages.unknownService('Blowot'), 'Blowout')).toBe(
      'Unknown service: Blowot. Did you mean “Blowout”?',
    );

    const imported = await call(t, o.token, 'POST', '/waitlist/import', { csv });
    expect(imported.json().data.imported).toBe(3);
    const rows = await t.database.db.select().from(customers).where(eq(customers.userId, o.id));
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    expect(byName['Ava Stone']).toMatchObject({ serviceId: cut.id, staffId: priya.id, language: 'es' });
    expect(byName['Bea Lin']).toMatchObject({ serviceId: cut.id, staffId: null });
    expect(byName['Dee Wu']).toMatchObject({ serviceId: blowout.id, staffId: priya.id });
    expect(byName['Cal Diaz']).toBeUndefined();
  });
});
