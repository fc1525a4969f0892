import { MAX_SERVICES, MAX_STAFF, offerMessages } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { services, staffMembers } from '../../db/schema.ts';
import { burst, statusCounts } from '../../test/race.ts';
import { auth, createTestApp, type TestApp } from '../../test/test-app.ts';
import { call, owner } from '../waitlist/waitlist.test-helpers.ts';

/**
 * Issue 38: a business's services and staff are bounded (the public join page lists them all), and the
 * limit holds under a burst of creates (src/test/race.ts), because it is counted under the owner's row lock.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const kinds = [
  {
    path: '/services',
    limit: MAX_SERVICES,
    message: offerMessages.tooManyServices,
    body: (name: string) => ({ name, durationMinutes: 30 }),
    seed: (userId: string, count: number) =>
      t.database.db
        .insert(services)
        .values(
          Array.from({ length: count }, (_, n) => ({ userId, name: `Seeded ${n}`, durationMinutes: 30 })),
        ),
  },
  {
    path: '/staff',
    limit: MAX_STAFF,
    message: offerMessages.tooManyStaff,
    body: (name: string) => ({ name }),
    seed: (userId: string, count: number) =>
      t.database.db
        .insert(staffMembers)
        .values(Array.from({ length: count }, (_, n) => ({ userId, name: `Seeded ${n}` }))),
  },
];

describe.each(kinds)('$path limit', ({ path, limit, message, body, seed }) => {
  it(`${limit - 2} existing and 10 created at once: exactly 2 succeed, the rest are refused in words`, async () => {
    const o = await owner(t);
    await seed(o.id, limit - 2);
    const answers = await burst(t.app, 10, (n) => ({
      method: 'POST',
      url: `/api/v1${path}`,
      headers: auth(o.token),
      payload: body(`Burst ${n}`),
    }));
    expect(statusCounts(answers)).toEqual({ 201: 2, 400: 8 });
    for (const refused of answers.filter((answer) => answer.statusCode === 400))
      expect(refused.json()).toMatchObject({ success: false, message });
    expect((await call(t, o.token, 'GET', path)).json().data).toHaveLength(limit);

    // Deleting one makes room for one.
    const [first] = (await call(t, o.token, 'GET', path)).json().data as { id: string }[];
    expect((await call(t, o.token, 'DELETE', `${path}/${first!.id}`)).statusCode).toBe(200);
    expect((await call(t, o.token, 'POST', path, body('Room again'))).statusCode).toBe(201);
    expect((await call(t, o.token, 'POST', path, body('One too many'))).statusCode).toBe(400);
    // Another business is not affected.
    const other = await owner(t);
    expect((await call(t, other.token, 'POST', path, body('Their first'))).statusCode).toBe(201);
  });
});
