import { ADMIN_COUNT_STEP, type AdminUsersResponse } from '@waitlist/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import { auth, createTestApp, type TestApp, verifiedUser } from '../../test/test-app.ts';

/**
 * The admin list's bounded count (issue 30): a broad search among many users is counted only up to the first
 * whole step of ADMIN_COUNT_STEP past the page asked for, so its cost does not grow with the users matching.
 * 2,050 owners: 1,500 "Salon" and 550 "Barber"; with the admin, 2,051 users. Also the page itself, chosen
 * in two steps (admin-users.repo.ts listUsers): the same page as PostgreSQL's plain ORDER BY gives.
 */
const SALONS = 1500;
const BARBERS = 550;
let t: TestApp;
let adminToken: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: 'ada@admin.test' } });
  const owners = Array.from({ length: SALONS + BARBERS }, (_, i) => ({
    firstName: `Owner${i}`,
    lastName: 'Count',
    email: `owner${i}@count.test`,
    businessName: i < SALONS ? `Salon ${i}` : `Barber ${i}`,
    subscriptionPlan: (['free_trial', 'starter', 'growth'] as const)[i % 3],
    verified: true,
    createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
  }));
  for (let start = 0; start < owners.length; start += 500) {
    await t.database.db.insert(users).values(owners.slice(start, start + 500));
  }
  adminToken = (await verifiedUser(t, { email: 'ada@admin.test' })).token;
});
afterAll(() => t.close());

async function list(query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/admin/users?${query}`,
    headers: auth(adminToken),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as AdminUsersResponse;
}

describe('GET /admin/users: the bounded count', () => {
  it('stops at the first step past the page: "1,000+" on page 1 of a broad search', async () => {
    expect(ADMIN_COUNT_STEP).toBe(1000);
    const first = await list('search=salon');
    expect(first).toMatchObject({ total: 1000, totalExact: false, page: 1 });
    expect(first.data).toHaveLength(25);
    const everyone = await list('');
    expect(everyone).toMatchObject({ total: 1000, totalExact: false });
  });

  it('counts further as the pages go further, and exactly once the end is within the step', async () => {
    // Page 40 of 25 ends at row 1,000: the count reads to 2,000, past the 1,500 salons.
    expect(await list('search=salon&page=40')).toMatchObject({ total: SALONS, totalExact: true });
    // Every user, page 40: 2,051 is past 2,000, so "2,000+", and page 41 still exists.
    expect(await list('page=40')).toMatchObject({ total: 2000, totalExact: false });
    const next = await list('page=41');
    expect(next.data).toHaveLength(25);
    expect(await list('page=80&pageSize=25')).toMatchObject({
      total: SALONS + BARBERS + 1,
      totalExact: true,
    });
  });

  it('is exact for a search within the step', async () => {
    expect(await list('search=barber')).toMatchObject({ total: BARBERS, totalExact: true });
    expect(await list('search=barber&pageSize=100&page=7')).toMatchObject({
      total: BARBERS,
      totalExact: true,
      data: [],
    });
    expect(await list('search=nobody')).toMatchObject({ total: 0, totalExact: true });
  });
});

describe('GET /admin/users: the page, whichever way it is chosen', () => {
  /** The page as one plain query orders it: the reference the two-step choice must equal. */
  async function referenceIds(where: string, sortSql: string, order: 'asc' | 'desc', page: number) {
    const result = (await t.database.db.execute(
      sql.raw(
        `select id from users where ${where} order by ${sortSql} ${order}, id ${order} limit 25 offset ${(page - 1) * 25}`,
      ),
    )) as unknown as { rows: Array<{ id: string }> };
    return result.rows.map((row) => row.id);
  }
  const tier = `case subscription_plan when 'free_trial' then 0 when 'starter' then 1 else 2 end`;

  it.each([
    // "Barber …" sorts before "Salon …": the first rows in order hold no salon, so every match is read.
    ['salon', 'businessName', 'lower(business_name)', 'asc', 1],
    ['salon', 'businessName', 'lower(business_name)', 'asc', 3],
    // Salons first: the page is found among the first rows in order.
    ['salon', 'businessName', 'lower(business_name)', 'desc', 2],
    // 1,500 salons before the first barber.
    ['barber', 'businessName', 'lower(business_name)', 'desc', 1],
    ['owner1', 'firstName', 'lower(first_name)', 'asc', 2],
    ['count', 'email', 'email', 'desc', 40],
    ['barber', 'createdAt', 'created_at', 'asc', 22],
  ] as const)('search %s by %s (%s) %s, page %i', async (search, sort, sortSql, order, page) => {
    const answer = await list(`search=${search}&sort=${sort}&order=${order}&page=${page}`);
    const expected = await referenceIds(`search_text like '%${search}%'`, sortSql, order, page);
    expect(answer.data.map((user) => user.id)).toEqual(expected);
  });

  it.each([
    // By tier: the free trials come first, so a growth search reads every match.
    ['plan=growth&sort=subscriptionPlan&order=asc&page=3', `subscription_plan = 'growth'`, 'asc'],
    ['search=barber&sort=subscriptionPlan&order=desc&page=2', `search_text like '%barber%'`, 'desc'],
    // One plan: one tier, so the id's order.
    [
      'plan=starter&search=salon&sort=subscriptionPlan&order=desc&page=4',
      `subscription_plan = 'starter' and search_text like '%salon%'`,
      'desc',
    ],
  ] as const)('%s', async (query, where, order) => {
    const page = Number(new URLSearchParams(query).get('page'));
    const answer = await list(query);
    expect(answer.data).toHaveLength(25);
    expect(answer.data.map((user) => user.id)).toEqual(await referenceIds(where, tier, order, page));
  });
});
