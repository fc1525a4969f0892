import { ADMIN_SEARCH_MAX_LENGTH, adminMessages, type User } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  registerUser,
  secretsIn,
  type TestApp,
  verifiedUser,
} from '../../test/test-app.ts';
import { parseSearch } from './admin.service.ts';

/**
 * GET /admin/users (issue 6) on a known set of owners. Two more users register through the API: the
 * admin (newest) and a plain owner, so the list always holds six.
 */
let t: TestApp;
let adminToken: string;
let ownerToken: string;

const seeded = [
  {
    firstName: 'Amy',
    lastName: 'Adams',
    email: 'amy@alpha.test',
    businessName: 'Zebra Cuts',
    businessPhone: '5551230001',
    subscriptionPlan: 'starter' as const,
    subscriptionStatus: 'active',
    verified: true,
    createdAt: new Date('2026-01-01T09:00:00Z'),
  },
  {
    // Lower-case on purpose: sorting by name ignores case.
    firstName: 'bob',
    lastName: 'Brown',
    email: 'bob@beta.test',
    businessName: 'Alpha Salon',
    businessPhone: '2125550199',
    subscriptionPlan: 'growth' as const,
    subscriptionStatus: 'past_due',
    verified: false,
    createdAt: new Date('2026-02-01T09:00:00Z'),
  },
  {
    firstName: 'Cara',
    lastName: 'Chen',
    email: 'cara@gamma.test',
    businessName: 'Mid Barber',
    businessPhone: '5551234567',
    subscriptionPlan: 'free_trial' as const,
    subscriptionStatus: 'trialing',
    verified: true,
    plivoNumber: '+13125550111',
    plivoNumberStatus: 'verified' as const,
    createdAt: new Date('2026-03-01T09:00:00Z'),
  },
  {
    firstName: 'Dan',
    lastName: 'Diaz',
    email: 'dan@delta.test',
    businessName: '100%_Fun',
    businessPhone: '',
    subscriptionPlan: 'free_trial' as const,
    subscriptionStatus: 'canceled',
    verified: false,
    passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
    createdAt: new Date('2026-04-01T09:00:00Z'),
  },
];

beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_EMAILS: 'ada@admin.test' } });
  await t.database.db.insert(users).values(seeded);
  ownerToken = (await registerUser(t, { firstName: 'Bella', lastName: 'Rossi', email: 'bella@owner.test' }))
    .token;
  t.clock.advance(60_000); // the admin signs up a minute later, so "newest first" has one answer
  // ADMIN_EMAILS grants admin to a verified address only (issue 12).
  adminToken = (await verifiedUser(t, { firstName: 'Ada', lastName: 'Admin', email: 'ada@admin.test' }))
    .token;
});
afterAll(() => t.close());

type ListAnswer = {
  success: true;
  data: User[];
  total: number;
  totalExact: boolean;
  page: number;
  pageSize: number;
  sort: string;
  order: string;
};

async function list(query = '', token = adminToken) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v1/admin/users${query}`,
    headers: auth(token),
  });
  return { status: response.statusCode, body: response.json() as ListAnswer & { message?: string } };
}
async function emailsFor(query: string) {
  const { status, body } = await list(query);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.data.map((user) => user.email);
}

describe('GET /admin/users: who may call it', () => {
  it('answers 401 to visitors and to an unknown token', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/admin/users' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().success).toBe(false);
    const forged = await list('', 'not-a-session');
    expect(forged.status).toBe(401);
  });

  it('answers 403 to an owner who is not an admin, before looking at the query', async () => {
    const owner = await list('', ownerToken);
    expect(owner.status).toBe(403);
    expect(owner.body.message).toBe(adminMessages.adminOnly);
    const withBadQuery = await list('?sort=password', ownerToken);
    expect(withBadQuery.status).toBe(403);
  });
});

describe('GET /admin/users: the answer', () => {
  it("keeps the SPEC's answer and adds paging, newest first by default", async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      success: true,
      total: 6,
      totalExact: true,
      page: 1,
      pageSize: 25,
      sort: 'createdAt',
      order: 'desc',
    });
    expect(body.data.map((user) => user.email)).toEqual([
      'ada@admin.test',
      'bella@owner.test',
      'dan@delta.test',
      'cara@gamma.test',
      'bob@beta.test',
      'amy@alpha.test',
    ]);
    const cara = body.data.find((user) => user.email === 'cara@gamma.test');
    expect(cara).toMatchObject({
      _id: cara?.id,
      businessPhone: '5551234567',
      plivoNumber: '+13125550111',
      plivoNumberStatus: 'verified',
      subscriptionPlan: 'free_trial',
      verified: true,
      createdAt: '2026-03-01T09:00:00.000Z',
    });
  });

  it('never shows a hash, token, code or the search columns', async () => {
    const { body } = await list('?pageSize=100');
    expect(secretsIn(body)).toEqual([]);
    const raw = JSON.stringify(body);
    expect(raw).not.toContain('$argon2');
    expect(raw).not.toMatch(/searchText|phoneDigits|billingCustomerId|passwordHash/);
  });
});

describe('GET /admin/users: filters', () => {
  it('filters verified and unverified users', async () => {
    const verified = await list('?verified=true');
    expect(verified.body.data.every((user) => user.verified)).toBe(true);
    // The admin is verified too: ADMIN_EMAILS grants admin to a verified address only (issue 12).
    expect(verified.body.data.map((user) => user.email).sort()).toEqual([
      'ada@admin.test',
      'amy@alpha.test',
      'cara@gamma.test',
    ]);
    const unverified = await list('?verified=false');
    expect(unverified.body.data.every((user) => !user.verified)).toBe(true);
    expect(unverified.body.total).toBe(3);
  });

  it.each([
    ['free_trial', ['ada@admin.test', 'bella@owner.test', 'dan@delta.test', 'cara@gamma.test']],
    ['starter', ['amy@alpha.test']],
    ['growth', ['bob@beta.test']],
  ])('filters the %s plan', async (plan, expected) => {
    const { body } = await list(`?plan=${plan}`);
    expect(body.data.map((user) => user.email)).toEqual(expected);
    expect(body.total).toBe(expected.length);
  });

  it('combines filters and search', async () => {
    expect(await emailsFor('?plan=free_trial&verified=false')).toEqual([
      'bella@owner.test',
      'dan@delta.test',
    ]);
    expect(await emailsFor('?plan=free_trial&verified=true&search=barber')).toEqual(['cara@gamma.test']);
    expect(await emailsFor('?plan=starter&search=barber')).toEqual([]);
  });
});

describe('GET /admin/users: sorting', () => {
  it.each([
    ['firstName', 'asc', ['ada', 'amy', 'bella', 'bob', 'cara', 'dan']],
    ['firstName', 'desc', ['dan', 'cara', 'bob', 'bella', 'amy', 'ada']],
    ['email', 'asc', ['ada', 'amy', 'bella', 'bob', 'cara', 'dan']],
    ['email', 'desc', ['dan', 'cara', 'bob', 'bella', 'amy', 'ada']],
    // Businesses: '' (Ada, Bella; by id) < '100%_fun' < 'alpha salon' < 'mid barber' < 'zebra cuts'.
    ['businessName', 'asc', ['?', '?', 'dan', 'bob', 'cara', 'amy']],
    ['businessName', 'desc', ['amy', 'cara', 'bob', 'dan', '?', '?']],
    ['createdAt', 'asc', ['amy', 'bob', 'cara', 'dan', 'bella', 'ada']],
    ['createdAt', 'desc', ['ada', 'bella', 'dan', 'cara', 'bob', 'amy']],
  ])('sorts by %s %s', async (sort, order, expected) => {
    const { body } = await list(`?sort=${sort}&order=${order}`);
    expect(body).toMatchObject({ sort, order });
    const names = body.data.map((user) => user.firstName.toLowerCase());
    expected.forEach((name, index) => {
      if (name === '?') expect(['ada', 'bella']).toContain(names[index]);
      else expect(names[index]).toBe(name);
    });
  });

  it('sorts plans by tier (Free Trial, Starter, Growth), both ways', async () => {
    const ascending = await list('?sort=subscriptionPlan&order=asc');
    expect(ascending.body.data.map((user) => user.subscriptionPlan)).toEqual([
      'free_trial',
      'free_trial',
      'free_trial',
      'free_trial',
      'starter',
      'growth',
    ]);
    const descending = await list('?sort=subscriptionPlan&order=desc');
    expect(descending.body.data.map((user) => user.subscriptionPlan).slice(0, 2)).toEqual([
      'growth',
      'starter',
    ]);
  });

  it('orders text A→Z and dates newest first when no order is given', async () => {
    expect((await list('?sort=firstName')).body.order).toBe('asc');
    expect((await list('?sort=createdAt')).body.order).toBe('desc');
    expect((await emailsFor('?sort=email'))[0]).toBe('ada@admin.test');
  });
});

describe('GET /admin/users: search', () => {
  it.each([
    ['amy', ['amy@alpha.test']],
    ['ADAMS', ['amy@alpha.test']],
    ['chen', ['cara@gamma.test']],
    ['gamma.test', ['cara@gamma.test']],
    // "alpha" is in Amy's email and in Bob's business.
    ['alpha', ['bob@beta.test', 'amy@alpha.test']],
    ['zebra cuts', ['amy@alpha.test']],
    // Words may come from different fields; all must match.
    ['amy zebra', ['amy@alpha.test']],
    ['amy barber', []],
    ['nobody-like-this', []],
  ])('finds %j by name, email or business', async (search, expected) => {
    expect(await emailsFor(`?search=${encodeURIComponent(search)}`)).toEqual(expected);
  });

  it.each([
    ['(555) 123-4567', ['cara@gamma.test']],
    ['555.123.4567', ['cara@gamma.test']],
    ['+1 (555) 123-4567', ['cara@gamma.test']],
    ['555-123', ['cara@gamma.test', 'amy@alpha.test']],
    ['0199', ['bob@beta.test']],
    // The dedicated number counts as a phone too.
    ['(312) 555-0111', ['cara@gamma.test']],
  ])('finds phone %j however it is formatted', async (search, expected) => {
    expect(await emailsFor(`?search=${encodeURIComponent(search)}`)).toEqual(expected);
  });

  it('treats % and _ as the characters typed, not as wildcards', async () => {
    expect(await emailsFor(`?search=${encodeURIComponent('100%')}`)).toEqual(['dan@delta.test']);
    expect(await emailsFor(`?search=${encodeURIComponent('%_')}`)).toEqual(['dan@delta.test']);
    expect(await emailsFor(`?search=${encodeURIComponent('a%b')}`)).toEqual([]);
  });

  it('ignores surrounding spaces and an empty search', async () => {
    expect(await emailsFor('?search=%20%20amy%20')).toEqual(['amy@alpha.test']);
    expect((await list('?search=')).body.total).toBe(6);
  });

  it('counts the whole match, not the page', async () => {
    const { body } = await list(`?search=${encodeURIComponent('555')}&pageSize=1`);
    expect(body.data).toHaveLength(1);
    expect(body.total).toBe(3);
  });
});

describe('GET /admin/users: paging', () => {
  it('walks every user once across pages', async () => {
    const seen: string[] = [];
    for (const page of [1, 2, 3]) {
      const { body } = await list(`?pageSize=2&page=${page}&sort=firstName`);
      expect(body).toMatchObject({ page, pageSize: 2, total: 6 });
      expect(body.data).toHaveLength(2);
      seen.push(...body.data.map((user) => user.email));
    }
    expect(new Set(seen).size).toBe(6);
  });

  it('gives an empty page past the end, with the total', async () => {
    const { status, body } = await list('?pageSize=5&page=2');
    expect(status).toBe(200);
    expect(body.data).toHaveLength(1);
    const past = await list('?pageSize=5&page=3');
    expect(past.body).toMatchObject({ data: [], total: 6, totalExact: true, page: 3 });
  });

  it('accepts the largest page size', async () => {
    const { status, body } = await list('?pageSize=100');
    expect(status).toBe(200);
    expect(body.pageSize).toBe(100);
  });
});

describe('GET /admin/users: bad parameters', () => {
  it.each([
    ['?sort=password', adminMessages.badSort],
    ['?sort=createdat', adminMessages.badSort],
    ['?order=up', adminMessages.badOrder],
    ['?verified=yes', adminMessages.badVerified],
    ['?plan=enterprise', adminMessages.badPlan],
    ['?page=0', adminMessages.badPage],
    ['?page=-1', adminMessages.badPage],
    ['?page=abc', adminMessages.badPage],
    ['?page=1.5', adminMessages.badPage],
    ['?pageSize=0', adminMessages.badPageSize],
    ['?pageSize=101', adminMessages.badPageSize],
    [`?search=${'a'.repeat(ADMIN_SEARCH_MAX_LENGTH + 1)}`, adminMessages.searchTooLong],
  ])('refuses %s with a clear message', async (query, message) => {
    const { status, body } = await list(query);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, message });
  });
});

describe('parseSearch', () => {
  it('reads a phone typed in any format as one digits term', () => {
    expect(parseSearch('+1 (555) 123-4567')).toEqual([{ digits: ['15551234567', '5551234567'] }]);
    expect(parseSearch('555.123')).toEqual([{ digits: ['555123'] }]);
  });

  it('reads other text as words, and short numbers as text', () => {
    expect(parseSearch('  Amy   Zebra ')).toEqual([{ text: 'Amy' }, { text: 'Zebra' }]);
    expect(parseSearch('Suite 42')).toEqual([{ text: 'Suite' }, { text: '42' }]);
    expect(parseSearch('amy 5551')).toEqual([{ text: 'amy' }, { digits: ['5551'] }]);
    expect(parseSearch('')).toEqual([]);
    expect(parseSearch(undefined)).toEqual([]);
  });
});
