import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from './waitlist.test-helpers.ts';

/** Issue 27: a search shows each customer where they really are in line. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('places in line', () => {
  it('keeps each customer’s real place in line in a search; booked and removed ones hold none (issue 27)', async () => {
    const o = await owner(t, { plan: 'growth' });
    const added = [];
    for (const name of [
      'Ann One',
      'Ben Two',
      'Cal Three',
      'Dee Four',
      'Marcus Five',
      'Marc Gone',
      'Mark Booked',
    ])
      added.push(await addCustomer(t, o.token, 540 + added.length, { name }));
    await call(t, o.token, 'DELETE', `/waitlist/${added[5]!.id}`);
    await call(t, o.token, 'PATCH', `/waitlist/${added[6]!.id}`, { status: 'booked' });
    await call(t, o.token, 'PATCH', `/waitlist/${added[1]!.id}`, { status: 'offered' });
    const search = (await call(t, o.token, 'GET', '/waitlist?search=mar')).json().data;
    expect(search.map((c: { name: string; place: number | null }) => [c.name, c.place])).toEqual([
      ['Marcus Five', 5],
      ['Mark Booked', null],
    ]);
    const removed = (await call(t, o.token, 'GET', '/waitlist?status=removed')).json().data;
    expect(removed.map((c: { name: string; place: number | null }) => [c.name, c.place])).toEqual([
      ['Marc Gone', null],
    ]);
    const all = (await call(t, o.token, 'GET', '/waitlist')).json().data;
    expect(all.find((c: { name: string }) => c.name === 'Ben Two').place).toBe(2); // offered: still in line
  });
});
