import { userSchema } from '@waitlist/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { toUserDto } from '../../lib/user.dto.ts';
import { auth, createTestApp, onboardedUser, registerUser, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** GET /auth/me's user (written by the database) beside toUserDto of the same row (written in TypeScript). */
async function bothAnswers(token: string, userId: string) {
  const response = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const [row] = await t.database.db.select().from(users).where(eq(users.id, userId));
  return { fromDatabase: response.json().data, fromRow: toUserDto(row!) };
}

describe("GET /auth/me's user, built by the database", () => {
  it('equals toUserDto for a new account (optional fields empty, no dates but the trial)', async () => {
    const owner = await registerUser(t);
    const { fromDatabase, fromRow } = await bothAnswers(owner.token, owner.id);
    expect(fromDatabase).toEqual(fromRow);
    expect(userSchema.parse(fromDatabase)).toEqual(fromRow);
  });

  it('equals toUserDto for an account with every optional field set, microsecond timestamps included', async () => {
    const owner = await onboardedUser(t);
    await t.database.db
      .update(users)
      .set({
        pendingEmail: 'new.address@example.com',
        subscriptionPlan: 'growth',
        subscriptionPeriod: 'yearly',
        subscriptionStatus: 'active',
        // Sub-millisecond parts: the database writes milliseconds as toISOString does (truncated).
        trialEndDate: sql`'2026-12-01 10:20:30.456789+00'::timestamptz`,
        currentPeriodEnd: sql`'2027-11-24 23:59:59.999999-05'::timestamptz`,
        plivoNumber: '+13125550100',
        plivoNumberStatus: 'verified',
        pushNotificationsEnabled: true,
        devicePlatform: 'ios',
        weeklySummaryEnabled: false,
        businessName: 'Bella "Quotes" & Salon',
        city: 'Zürich ✂',
      })
      .where(eq(users.id, owner.id));
    const { fromDatabase, fromRow } = await bothAnswers(owner.token, owner.id);
    expect(fromDatabase).toEqual(fromRow);
    expect(fromDatabase.trialEndDate).toBe('2026-12-01T10:20:30.456Z');
    expect(fromDatabase.currentPeriodEnd).toBe('2027-11-25T04:59:59.999Z');
    expect(fromDatabase.businessName).toBe('Bella "Quotes" & Salon');
  });
});

describe("GET /auth/me's user, held between calls", () => {
  it('follows every change to the row, whoever makes it, and a signed-out session is refused at once', async () => {
    const owner = await onboardedUser(t);
    const first = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(owner.token) });
    const again = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(owner.token) });
    expect(again.body).toBe(first.body);

    // A write outside the API (SQL by hand, as an operator would): the next answer has it.
    await t.database.db.execute(sql`update users set city = 'Lyon' where id = ${owner.id}`);
    const changed = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(owner.token) });
    expect(changed.json().data.city).toBe('Lyon');
    const { fromDatabase, fromRow } = await bothAnswers(owner.token, owner.id);
    expect(fromDatabase).toEqual(fromRow);

    // Through the API.
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/dashboard/weekly-summary',
      headers: auth(owner.token),
      payload: { enabled: false },
    });
    expect(saved.statusCode).toBe(200);
    const afterSave = await t.app.inject({ url: '/api/v1/auth/me', headers: auth(owner.token) });
    expect(afterSave.json().data.weeklySummaryEnabled).toBe(false);

    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: auth(owner.token),
    });
    expect(logout.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/auth/me', headers: auth(owner.token) })).statusCode).toBe(401);
  });
});
