import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../db/schema.ts';
import { addCard } from '../features/billing/billing.test-helpers.ts';
import { addCustomer, owner as fullOwner } from '../features/waitlist/waitlist.test-helpers.ts';
import {
  authorizationMatrix,
  type Expected,
  type Fixtures,
  type MatrixRow,
  type Role,
  roles,
} from './authorization-matrix.ts';
import {
  auth,
  createTestApp,
  onboardedUser,
  registerUser,
  type TestApp,
  uniqueEmail,
  uniqueIp,
  verifiedUser,
} from './test-app.ts';

/**
 * Every route of the route table × every role → the status the matrix expects (issue 12). The table lives in
 * authorization-matrix.ts; a route without a row fails here with its name.
 */

type World = Record<Role, { token?: string; id?: string }>;

const ADMIN_DOMAIN = '@matrix-admin.test';

async function createWorld(t: TestApp, adminEmail: string): Promise<World> {
  const admin = await onboardedUser(t, { email: adminEmail });
  // Listed in ADMIN_EMAILS the first time; the fresh worlds of later rows are granted as `npm run admin` does.
  await t.database.db
    .update(users)
    .set({
      ...(admin.user.admin ? {} : { admin: true }),
      // A text number like the owners', so the admin differs from them only by being an admin.
      plivoNumber: `+1555555${String(8000 + (adminCounter % 1000)).padStart(4, '0')}`,
      plivoNumberStatus: 'verified',
    })
    .where(eq(users.id, admin.id));
  const [unverified, verified, owner, otherOwner] = [
    await registerUser(t),
    await verifiedUser(t),
    await fullOwner(t),
    await fullOwner(t),
  ];
  return {
    visitor: {},
    unverified: { token: unverified.token, id: unverified.id },
    verified: { token: verified.token, id: verified.id },
    owner: { token: owner.token, id: owner.id },
    otherOwner: { token: otherOwner.token, id: otherOwner.id },
    admin: { token: admin.token, id: admin.id },
  };
}

let customerCounter = 9000;
let adminCounter = 0;
const nextAdminEmail = () => {
  adminCounter += 1;
  return adminCounter === 1 ? listedAdmin : uniqueEmail('admin');
};
const listedAdmin = uniqueEmail('admin').replace('@example.com', ADMIN_DOMAIN);
async function createFixtures(t: TestApp, world: World, rowSpec: MatrixRow): Promise<Fixtures> {
  const token = world.owner.token!;
  customerCounter += 1;
  const entry = await addCustomer(t, token, customerCounter);
  const offerSetup = {
    serviceId: await created(t, token, '/api/v1/services', {
      name: `Matrix service ${customerCounter}`,
      durationMinutes: 30,
    }),
    staffId: await created(t, token, '/api/v1/staff', { name: `Matrix stylist ${customerCounter}` }),
  };
  // Openings are counted per day by plan: one only for the rows that use it.
  if (rowSpec.id !== 'openingId') {
    return {
      ownerId: world.owner.id!,
      waitlistEntryId: entry.id,
      openingId: 'unused',
      paymentMethodId: await addCard(t, token),
      ...offerSetup,
    };
  }
  // The free trial allows one alert a day: the next day for each opening.
  t.clock.advance(25 * 60 * 60 * 1000);
  const opening = await t.app.inject({
    method: 'POST',
    url: '/api/v1/openings',
    headers: auth(token),
    payload: {
      startsAt: new Date(t.clock.now().getTime() + 3 * 60 * 60 * 1000).toISOString(),
      durationMinutes: 30,
      service: 'Matrix cut',
    },
  });
  if (opening.statusCode !== 201 && opening.statusCode !== 200)
    throw new Error(`opening fixture failed: ${opening.statusCode} ${opening.body}`);
  return {
    ownerId: world.owner.id!,
    waitlistEntryId: entry.id,
    openingId: opening.json().data.id,
    paymentMethodId: await addCard(t, token),
    ...offerSetup,
  };
}

/** The id of what a POST made (a service, a staff member), for the rows that name it. */
async function created(t: TestApp, token: string, url: string, payload: object): Promise<string> {
  const response = await t.app.inject({ method: 'POST', url, headers: auth(token), payload });
  if (response.statusCode !== 201)
    throw new Error(`${url} fixture failed: ${response.statusCode} ${response.body}`);
  return response.json().data.id;
}

/** The matrix's order: the owner last, as the owner's call may use the resource up (a DELETE). */
const callOrder: Role[] = ['visitor', 'unverified', 'verified', 'otherOwner', 'admin', 'owner'];

async function send(
  t: TestApp,
  key: string,
  rowSpec: MatrixRow,
  role: Role,
  world: World,
  fixtures?: Fixtures,
) {
  const [method, path] = key.split(' ') as [string, string];
  const url = path.replace(/:(\w+)/g, (_match, name: string) => {
    if (rowSpec.params?.[name]) return encodeURIComponent(rowSpec.params[name]);
    if (name === 'id' && rowSpec.id && fixtures) return encodeURIComponent(fixtures[rowSpec.id]);
    return 'no-such-id';
  });
  const token = world[role].token;
  const body = rowSpec.body && fixtures ? rowSpec.body(fixtures) : {};
  const response = await t.app.inject({
    method: method as 'GET',
    url: `${url}${rowSpec.query ? `?${rowSpec.query}` : ''}`,
    headers: token ? auth(token) : {},
    ...(method === 'GET' ? {} : { payload: body as object }),
    remoteAddress: uniqueIp(),
  });
  return response;
}

async function runRows(
  t: TestApp,
  rows: [string, MatrixRow][],
  expectedOf: (row: MatrixRow) => Expected,
  world: () => Promise<World>,
) {
  const mismatches: string[] = [];
  const shared = await world();
  let checks = 0;
  for (const [key, rowSpec] of rows) {
    const current = rowSpec.fresh ? await world() : shared;
    const needsFixtures = rowSpec.id !== undefined || rowSpec.body !== undefined;
    const fixtures = needsFixtures
      ? await createFixtures(t, current, rowSpec).catch((error: Error) => {
          throw new Error(`${key}: ${error.message}`);
        })
      : undefined;
    for (const role of callOrder) {
      const response = await send(t, key, rowSpec, role, current, fixtures);
      checks += 1;
      const expected = expectedOf(rowSpec)[role];
      if (response.statusCode !== expected) {
        mismatches.push(
          `${key} as ${role}: expected ${expected}, got ${response.statusCode} ${response.body.slice(0, 160)}`,
        );
      }
    }
  }
  return { mismatches, checks };
}

describe('authorization matrix (loopback HOST: the default configuration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // METRICS_TOKEN registers GET /metrics, so it has a row too (no role holds the scraper's token).
    t = await createTestApp({
      env: { ADMIN_EMAILS: listedAdmin, METRICS_TOKEN: 'matrix-metrics-token-0123' },
    });
  });
  afterAll(() => t.close());

  it('has exactly one row for every route of the route table', () => {
    const routes = [...new Set(t.app.routeTable.map((route) => `${route.method} ${route.url}`))];
    const missing = routes.filter((route) => !(route in authorizationMatrix));
    expect(
      missing,
      `Routes without a row in apps/server/src/test/authorization-matrix.ts (add one each): ${missing.join(', ')}`,
    ).toEqual([]);
    const stale = Object.keys(authorizationMatrix).filter((key) => !routes.includes(key));
    expect(stale, `Rows for routes that no longer exist: ${stale.join(', ')}`).toEqual([]);
  });

  it('answers every route × role with the expected status', async () => {
    const rows = Object.entries(authorizationMatrix);
    const { mismatches, checks } = await runRows(
      t,
      rows,
      (row) => row.expect,
      () => createWorld(t, nextAdminEmail()),
    );
    console.info(`authorization matrix: ${rows.length} routes × ${roles.length} roles = ${checks} checks`);
    expect(mismatches).toEqual([]);
  }, 240_000);
});

describe('authorization matrix: the local tools on a public HOST with LOCAL_TOOLS=admin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { HOST: '0.0.0.0', LOCAL_TOOLS: 'admin', ADMIN_EMAILS: '' } });
  });
  afterAll(() => t.close());

  it('answers admins only', async () => {
    const rows = Object.entries(authorizationMatrix).filter(([, row]) => row.publicHost);
    expect(rows.length).toBeGreaterThanOrEqual(9);
    const { mismatches } = await runRows(
      t,
      rows,
      (row) => row.publicHost!,
      () => createWorld(t, uniqueEmail('admin')),
    );
    expect(mismatches).toEqual([]);
  }, 120_000);
});
