import { type Customer, waitlistMessages } from '@waitlist/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { addCustomer, call, customerPhone, owner } from './waitlist.test-helpers.ts';

/** Undoing a removal (issue 27): POST /waitlist/:id/restore. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 24 * 60 * 60 * 1000;

async function waitingNames(token: string) {
  const list = await call(t, token, 'GET', '/waitlist');
  return (list.json().data as (Customer & { place: number | null })[]).map((c) => `${c.place} ${c.name}`);
}

describe('restoring a removed customer', () => {
  it('puts a customer removed moments ago back at their old place, the same entry with its notes', async () => {
    const o = await owner(t);
    await addCustomer(t, o.token, 101, { name: 'Ana' });
    const marcus = await addCustomer(t, o.token, 102, { name: 'Marcus', notes: 'Prefers mornings' });
    await addCustomer(t, o.token, 103, { name: 'Zoe' });
    expect((await call(t, o.token, 'DELETE', `/waitlist/${marcus.id}`)).statusCode).toBe(200);
    expect(await waitingNames(o.token)).toEqual(['1 Ana', '2 Zoe']);

    t.clock.advance(10_000);
    const restored = await call(t, o.token, 'POST', `/waitlist/${marcus.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      success: true,
      message: waitlistMessages.customerRestored,
      data: { id: marcus.id, status: 'waiting', notes: 'Prefers mornings', position: marcus.position },
    });
    expect(await waitingNames(o.token)).toEqual(['1 Ana', '2 Marcus', '3 Zoe']);
  });

  it('puts a customer removed more than 7 days ago at the end of the line', async () => {
    const o = await owner(t, { plan: 'growth' });
    const ana = await addCustomer(t, o.token, 111, { name: 'Ana' });
    await addCustomer(t, o.token, 112, { name: 'Ben' });
    await call(t, o.token, 'DELETE', `/waitlist/${ana.id}`);
    t.clock.advance(8 * DAY);
    await addCustomer(t, o.token, 113, { name: 'Cleo' });
    const restored = await call(t, o.token, 'POST', `/waitlist/${ana.id}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await waitingNames(o.token)).toEqual(['1 Ben', '2 Cleo', '3 Ana']);
  });

  it('two restores at once put the customer back once: one row, counted once', async () => {
    const o = await owner(t);
    const dee = await addCustomer(t, o.token, 121, { name: 'Dee' });
    await call(t, o.token, 'DELETE', `/waitlist/${dee.id}`);
    const answers = await Promise.all(
      [0, 1, 2].map(() => call(t, o.token, 'POST', `/waitlist/${dee.id}/restore`)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    const rows = await t.database.db
      .select()
      .from(customers)
      .where(and(eq(customers.userId, o.id), eq(customers.phone, customerPhone(121))));
    expect(rows.map((row) => row.status)).toEqual(['waiting']);
    const list = await call(t, o.token, 'GET', '/waitlist');
    expect(list.json().count).toBe(1);
  });

  it('refuses a customer who texted STOP, and a phone that is on the waitlist again', async () => {
    const o = await owner(t);
    const eve = await addCustomer(t, o.token, 131, { name: 'Eve' });
    await call(t, o.token, 'DELETE', `/waitlist/${eve.id}`);
    await receiveText(t, customerPhone(131), o.number, 'STOP');
    const optedOut = await call(t, o.token, 'POST', `/waitlist/${eve.id}/restore`);
    expect(optedOut.statusCode).toBe(409);
    expect(optedOut.json().message).toBe(waitlistMessages.restoreOptedOut('Eve'));

    const fay = await addCustomer(t, o.token, 132, { name: 'Fay' });
    await call(t, o.token, 'DELETE', `/waitlist/${fay.id}`);
    await addCustomer(t, o.token, 132, { name: 'Fay again' });
    const taken = await call(t, o.token, 'POST', `/waitlist/${fay.id}/restore`);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(waitlistMessages.duplicatePhone(customerPhone(132)));
    expect(await waitingNames(o.token)).toEqual(['1 Fay again']);
  });

  it("keeps the plan's cap, and 404s another owner's customer", async () => {
    const o = await owner(t);
    const first = await addCustomer(t, o.token, 140, { name: 'First' });
    await call(t, o.token, 'DELETE', `/waitlist/${first.id}`);
    const lines = ['name,phone'];
    for (let n = 141; n < 166; n += 1) lines.push(`Customer ${n},${customerPhone(n)}`);
    expect((await call(t, o.token, 'POST', '/waitlist/import', { csv: lines.join('\n') })).statusCode).toBe(
      200,
    );
    const full = await call(t, o.token, 'POST', `/waitlist/${first.id}/restore`);
    expect(full.statusCode).toBe(403);
    expect(full.json().message).toBe(waitlistMessages.capReached('free_trial', 25));

    const other = await owner(t);
    expect((await call(t, other.token, 'POST', `/waitlist/${first.id}/restore`)).statusCode).toBe(404);
  });
});
