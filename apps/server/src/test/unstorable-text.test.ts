import { findUnstorableText, isStorableText, unstorableTextMessage } from '@waitlist/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { owner as fullOwner } from '../features/waitlist/waitlist.test-helpers.ts';
import { withoutQueryValues } from '../lib/db-errors.ts';
import { auth, createTestApp, type TestApp, uniqueEmail, uniqueIp, verifiedUser } from './test-app.ts';

/**
 * Issue 12, finding 7: a NUL byte or a lone surrogate in any string field used to reach PostgreSQL and
 * answer 500 (with the bound values in the log). The contract's one rule refuses them with a 400 naming the
 * field; failed-query logs keep the SQL without the values.
 */
describe('the contract rule', () => {
  it('finds NUL and unpaired surrogates anywhere, keys included, and passes everything else', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'x\udfffy', '\udc00\ud800', 'end\ud83d']) {
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
    }
    for (const good of ['', 'plain', 'Zoë', '😀', '\ud83d\ude00', '\u0001', 'ŝ'.repeat(100)]) {
      expect(isStorableText(good), JSON.stringify(good)).toBe(true);
    }
    expect(findUnstorableText({ a: 'ok', b: { c: ['x', 'y\u0000'] } }, '')).toBe('b.c.1');
    expect(findUnstorableText(Object.fromEntries([['k\ud800', 1]]), '')).toBe('k\ud800');
    expect(findUnstorableText({ a: 1, b: [true, null, 'ok'] }, '')).toBeUndefined();
    expect(findUnstorableText('\ud800', 'search')).toBe('search');
  });
});

describe('every string field of a request', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof fullOwner>>;
  let admin: Awaited<ReturnType<typeof verifiedUser>>;
  const adminEmail = uniqueEmail('admin');
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_EMAILS: adminEmail } });
    owner = await fullOwner(t);
    admin = await verifiedUser(t, { email: adminEmail });
  });
  afterAll(() => t.close());

  const cases: {
    name: string;
    method: 'GET' | 'PUT' | 'POST';
    url: (bad: string) => string;
    payload?: (bad: string) => object;
    field: string;
    as?: 'admin';
  }[] = [
    {
      name: 'PUT /auth/updatedetails firstName',
      method: 'PUT',
      url: () => '/api/v1/auth/updatedetails',
      payload: (bad) => ({ firstName: `Bel${bad}la`, lastName: 'Rossi', email: 'x@example.com' }),
      field: 'firstName',
    },
    {
      name: 'PUT /message-templates/offer body',
      method: 'PUT',
      url: () => '/api/v1/message-templates/offer',
      payload: (bad) => ({ body: `Hi ${bad}` }),
      field: 'body',
    },
    {
      name: 'GET /waitlist?search=',
      method: 'GET',
      url: (bad) =>
        `/api/v1/waitlist?search=${encodeURIComponent(bad.replace(/[\ud800-\udfff]/, '')) || '%00'}`,
      field: 'search',
    },
    {
      name: 'GET /admin/users?search=',
      method: 'GET',
      url: () => '/api/v1/admin/users?search=a%00b',
      field: 'search',
      as: 'admin',
    },
    {
      name: 'POST /stripe/payment-methods paymentMethodId',
      method: 'POST',
      url: () => '/api/v1/stripe/payment-methods',
      payload: (bad) => ({ paymentMethodId: `pm_${bad}` }),
      field: 'paymentMethodId',
    },
    {
      name: 'POST /stripe/update-billing-details address.city',
      method: 'POST',
      url: () => '/api/v1/stripe/update-billing-details',
      payload: (bad) => ({ name: 'Bella', address: { city: `Ro${bad}me` } }),
      field: 'address.city',
    },
    {
      name: 'POST /notifications/plan-change oldPlan',
      method: 'POST',
      url: () => '/api/v1/notifications/plan-change',
      payload: (bad) => ({ oldPlan: `free${bad}`, newPlan: 'starter' }),
      field: 'oldPlan',
    },
    {
      name: 'POST /waitlist name',
      method: 'POST',
      url: () => '/api/v1/waitlist',
      payload: (bad) => ({ name: bad, phone: '+12125550100', consentMethod: 'verbal' }),
      field: 'name',
    },
    {
      name: 'POST /api/v1/dev/phone/reply text',
      method: 'POST',
      url: () => '/api/v1/dev/phone/reply',
      payload: (bad) => ({ from: '+12125550100', to: '+15555550100', text: `YES${bad}` }),
      field: 'text',
    },
    {
      name: 'PUT /users/{id} lastName',
      method: 'PUT',
      url: () => `/api/v1/users/${owner.id}`,
      payload: (bad) => ({ lastName: `Ros${bad}si` }),
      field: 'lastName',
    },
  ];

  for (const bad of ['\u0000', '\ud800']) {
    for (const spec of cases) {
      it(`${spec.name} with ${JSON.stringify(bad)}: 400 naming the field, nothing stored`, async () => {
        const [before] = await t.database.db.select().from(users).where(eq(users.id, owner.id));
        const token = spec.as === 'admin' ? admin.token : owner.token;
        const response = await t.app.inject({
          method: spec.method,
          url: spec.url(bad),
          headers: auth(token),
          ...(spec.payload ? { payload: spec.payload(bad) } : {}),
          remoteAddress: uniqueIp(),
        });
        expect(response.statusCode).toBe(400);
        const message = unstorableTextMessage(spec.field);
        expect(response.json()).toEqual({ success: false, message, errors: { [spec.field]: message } });
        const [after] = await t.database.db.select().from(users).where(eq(users.id, owner.id));
        expect(after).toEqual(before);
      });
    }
  }

  it('a path id with an encoded NUL is a 400 too, not a 500', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/waitlist/abc%00def',
      headers: auth(owner.token),
      payload: { notes: 'x' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual({ id: unstorableTextMessage('id') });
  });

  it('the dev phone validates its query and its form: a repeated number or a bad reply is a 400', async () => {
    const repeated = await t.app.inject({ url: '/api/v1/dev/phone/messages?number=a&number=b' });
    expect(repeated.statusCode).toBe(400);
    expect(repeated.json().message).toMatch(/one number/);
    const page = await t.app.inject({ url: '/dev/phone?number=a&number=b' });
    expect(page.statusCode).toBe(200);
    const form = await t.app.inject({
      method: 'POST',
      url: '/dev/phone/reply',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'from=%2B12125550100&to=%2B15555550100&text=%ED%A0%80',
    });
    expect(form.statusCode).toBeLessThan(500);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/dev/phone/reply',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'from=nobody',
    });
    expect(missing.statusCode).toBe(400);
  });
});

describe('a failed query in the log', () => {
  it('keeps the SQL and drops the bound values (and quoted values in the database message)', async () => {
    const t = await createTestApp();
    try {
      const secret = 'secret-value-123';
      const error = await t.database.db
        .execute(sql`select ${secret}::int as n`)
        .then(() => undefined)
        .catch((caught: unknown) => caught);
      expect(error).toBeDefined();
      expect(String((error as Error).message)).toContain(secret);
      const logged = JSON.stringify(withoutQueryValues(error));
      expect(logged).toContain('Failed query: select $1::int as n');
      expect(logged).not.toContain(secret);
    } finally {
      await t.close();
    }
  });
});
