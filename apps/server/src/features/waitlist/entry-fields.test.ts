import { offerMessages } from '@waitlist/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, joinRequests } from '../../db/schema.ts';
import { createTestApp, type TestApp, uniqueIp } from '../../test/test-app.ts';
import { receiveText } from '../messaging/messaging.test-helpers.ts';
import { quickProofOfWork } from './join.test-helpers.ts';
import { addCustomer, call, customerPhone, owner } from './waitlist.test-helpers.ts';

/** Issue 26: what a waitlist entry waits for (service, staff) and how the offer policy treats it. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: quickProofOfWork });
});
afterAll(async () => {
  await t.close();
});

type Owner = Awaited<ReturnType<typeof owner>>;

async function created(o: Owner, path: string, payload: object) {
  const response = await call(t, o.token, 'POST', path, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data as { id: string; name: string };
}

/** An owner with two services and a stylist. */
async function salon(plan: 'free_trial' | 'growth' = 'growth') {
  const o = await owner(t, { plan });
  const cut = await created(o, '/services', { name: 'Cut', durationMinutes: 30 });
  const colour = await created(o, '/services', { name: 'Colour', durationMinutes: 90, priceCents: 9000 });
  const jo = await created(o, '/staff', { name: 'Jo' });
  return { ...o, cut, colour, jo };
}

describe('a customer’s service, staff, time zone, VIP and pin', () => {
  it('stores them when the owner adds and edits a customer, and clears them with null', async () => {
    const o = await salon();
    const customer = await addCustomer(t, o.token, 301, {
      serviceId: o.cut.id,
      staffId: o.jo.id,
      timeZone: 'America/Chicago',
      vip: true,
    });
    expect(customer).toMatchObject({
      serviceId: o.cut.id,
      staffId: o.jo.id,
      timeZone: 'America/Chicago',
      vip: true,
      pinned: false,
    });
    const plain = await addCustomer(t, o.token, 302);
    expect(plain).toMatchObject({
      serviceId: null,
      staffId: null,
      timeZone: null,
      vip: false,
      pinned: false,
    });

    const edited = await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, {
      serviceId: o.colour.id,
      pinned: true,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Fields the edit leaves out keep their values.
    expect(edited.json().data).toMatchObject({
      serviceId: o.colour.id,
      staffId: o.jo.id,
      timeZone: 'America/Chicago',
      vip: true,
      pinned: true,
    });
    const cleared = await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, {
      serviceId: null,
      staffId: null,
      timeZone: null,
      vip: false,
    });
    expect(cleared.json().data).toMatchObject({
      serviceId: null,
      staffId: null,
      timeZone: null,
      vip: false,
      pinned: true,
    });
    const list = (await call(t, o.token, 'GET', '/waitlist')).json().data as {
      id: string;
      pinned: boolean;
    }[];
    expect(list.find((entry) => entry.id === customer.id)?.pinned).toBe(true);
  });

  it("refuses another business's service or staff member (400 naming the field), changing nothing", async () => {
    const o = await salon();
    const other = await salon();
    const add = await call(t, o.token, 'POST', '/waitlist', {
      name: 'Wrong service',
      phone: customerPhone(311),
      consentMethod: 'verbal',
      serviceId: other.cut.id,
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().errors).toEqual({ serviceId: offerMessages.serviceNotFound });
    const customer = await addCustomer(t, o.token, 312, { serviceId: o.cut.id });
    const edit = await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, {
      staffId: other.jo.id,
      name: 'Renamed',
    });
    expect(edit.statusCode).toBe(400);
    expect(edit.json().errors).toEqual({ staffId: offerMessages.staffNotFound });
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row).toMatchObject({ name: 'Customer 312', serviceId: o.cut.id, staffId: null });
    // Not a UUID: the contract's message for the field.
    const garbled = await call(t, o.token, 'PATCH', `/waitlist/${customer.id}`, { serviceId: 'cut' });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().errors?.serviceId).toBe(offerMessages.serviceNotFound);
  });

  it('keeps the customer when their service is deleted: they wait for anything', async () => {
    const o = await salon();
    const customer = await addCustomer(t, o.token, 321, { serviceId: o.colour.id });
    await call(t, o.token, 'DELETE', `/services/${o.colour.id}`);
    const [row] = await t.database.db.select().from(customers).where(eq(customers.id, customer.id));
    expect(row).toMatchObject({ status: 'waiting', serviceId: null });
  });
});

describe('the CSV import’s service and staff columns', () => {
  it('matches names in any case, and makes an unknown name the row’s error', async () => {
    const o = await salon();
    const csv = [
      'Name,Phone,Service,Staff',
      `Ann Lee,${customerPhone(331)},cut,JO`,
      `Bob Stone,${customerPhone(332)},Colour,`,
      `Cara Diaz,${customerPhone(333)},Perm,Jo`,
      `Dan Wu,${customerPhone(334)},Cut,Sam`,
      `Eve Moss,${customerPhone(335)},,`,
    ].join('\n');
    const preview = await call(t, o.token, 'POST', '/waitlist/import/preview', { csv });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ valid: 3, invalid: 2 });
    expect(preview.json().data.rows.map((row: { error: string | null }) => row.error)).toEqual([
      null,
      null,
      offerMessages.unknownService('Perm'),
      offerMessages.unknownStaff('Sam'),
      null,
    ]);
    expect(offerMessages.unknownService('Perm')).toBe('Unknown service: Perm');
    expect(offerMessages.unknownStaff('Sam')).toBe('Unknown staff member: Sam');

    const imported = await call(t, o.token, 'POST', '/waitlist/import', { csv });
    expect(imported.json().data.imported).toBe(3);
    const rows = await t.database.db.select().from(customers).where(eq(customers.userId, o.id));
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    expect(byName['Ann Lee']).toMatchObject({ serviceId: o.cut.id, staffId: o.jo.id });
    expect(byName['Bob Stone']).toMatchObject({ serviceId: o.colour.id, staffId: null });
    expect(byName['Eve Moss']).toMatchObject({ serviceId: null, staffId: null });
    expect(byName['Cara Diaz']).toBeUndefined();
  });

  it('imports files without those columns as before', async () => {
    const o = await owner(t);
    const csv = `name,phone,notes\nFay Lin,${customerPhone(341)},Mornings`;
    const imported = await call(t, o.token, 'POST', '/waitlist/import', { csv });
    expect(imported.json().data.imported).toBe(1);
    const [row] = await t.database.db.select().from(customers).where(eq(customers.userId, o.id));
    expect(row).toMatchObject({ notes: 'Mornings', serviceId: null, staffId: null });
  });
});

describe('the join page’s service and staff', () => {
  async function linked() {
    const o = await salon();
    const link = await call(t, o.token, 'GET', '/join-link');
    return { ...o, slug: link.json().data.slug as string };
  }
  const join = (slug: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1/join/${slug}`, payload, remoteAddress: uniqueIp() });

  it('lists the business’s services and staff by name', async () => {
    const o = await linked();
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/join/${o.slug}` });
    expect(page.json().data).toMatchObject({
      services: [
        { id: o.colour.id, name: 'Colour' },
        { id: o.cut.id, name: 'Cut' },
      ],
      staff: [{ id: o.jo.id, name: 'Jo' }],
    });
  });

  it('gives the customer the chosen service and staff member on their YES', async () => {
    const o = await linked();
    const phone = customerPhone(351);
    const answer = await join(o.slug, {
      name: 'Gia Park',
      phone,
      consent: true,
      serviceId: o.colour.id,
      staffId: o.jo.id,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const [request] = await t.database.db.select().from(joinRequests).where(eq(joinRequests.userId, o.id));
    expect(request).toMatchObject({ serviceId: o.colour.id, staffId: o.jo.id, status: 'pending' });
    await receiveText(t, phone, o.number, 'YES');
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.userId, o.id));
    expect(customer).toMatchObject({
      name: 'Gia Park',
      status: 'waiting',
      serviceId: o.colour.id,
      staffId: o.jo.id,
    });
  });

  it("drops another business's service or staff member without a word", async () => {
    const o = await linked();
    const other = await salon();
    const phone = customerPhone(361);
    const answer = await join(o.slug, {
      name: 'Hal Ng',
      phone,
      consent: true,
      serviceId: other.cut.id,
      staffId: other.jo.id,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    await receiveText(t, phone, o.number, 'YES');
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.userId, o.id));
    expect(customer).toMatchObject({ name: 'Hal Ng', serviceId: null, staffId: null });
  });
});
