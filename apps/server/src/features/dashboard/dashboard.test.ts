import type { EarningsPeriod } from '@waitlist/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customers, messages, openings } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Slot = {
  at: string;
  status?: 'open' | 'filled' | 'expired' | 'closed';
  price?: number | null;
  claimMin?: number;
};
async function seedOpenings(userId: string, slots: Slot[]) {
  await t.database.db.insert(openings).values(
    slots.map((slot) => {
      const createdAt = new Date(slot.at);
      const status = slot.status ?? 'open';
      return {
        userId,
        startsAt: new Date(createdAt.getTime() + 86_400_000),
        durationMinutes: 30,
        service: 'Cut',
        priceCents: slot.price === undefined ? 5000 : slot.price,
        status,
        mode: 'all' as const,
        createdAt,
        filledAt: status === 'filled' ? new Date(createdAt.getTime() + (slot.claimMin ?? 10) * 60_000) : null,
        localDate: slot.at.slice(0, 10),
      };
    }),
  );
}

async function period(token: string, query: string): Promise<EarningsPeriod> {
  const response = await call(t, token, 'GET', `/dashboard/earnings${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.period;
}

describe('GET /dashboard/earnings: ranges in the business time zone', () => {
  it('keeps the all-time answer and adds this week by default, with every figure', async () => {
    // Monday 2026-11-23 in New York.
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    const ann = await addCustomer(t, o.token, 201, { name: 'Ann Lee' });
    const bob = await addCustomer(t, o.token, 202, { name: 'Bob Stone' });
    await addCustomer(t, o.token, 203, { name: 'Cara Diaz' });
    // Waiting now counts only those waiting (issue 27): Dee was texted an offer, Eve is booked.
    const dee = await addCustomer(t, o.token, 204, { name: 'Dee Offered' });
    const eve = await addCustomer(t, o.token, 205, { name: 'Eve Booked' });
    await seedOpenings(o.id, [
      { at: '2026-11-23T06:00:00Z', status: 'filled', price: 6500, claimMin: 10 }, // Mon 01:00 local
      { at: '2026-11-23T07:00:00Z', status: 'filled', price: 4000, claimMin: 60 },
      { at: '2026-11-23T08:00:00Z', status: 'filled', price: null, claimMin: 20 }, // no price: counts, adds $0
      { at: '2026-11-23T09:00:00Z', status: 'expired' },
      { at: '2026-11-23T04:30:00Z', status: 'filled', price: 9900 }, // Sun 23:30 local: last week
    ]);
    const now = new Date('2026-11-23T09:30:00Z');
    await t.database.db.insert(messages).values([
      ...['delivered', 'delivered', 'sent', 'undelivered', 'failed', 'queued'].map((status, index) => ({
        userId: o.id,
        direction: 'out' as const,
        fromNumber: o.number,
        toNumber: '+12125550201',
        body: 'hi',
        // The first took three segments: a plan's texts included count segments, not texts (issue 39).
        segments: index === 0 ? 3 : 1,
        encoding: 'GSM-7',
        status: status as 'delivered',
        createdAt: now,
      })),
      {
        userId: o.id,
        direction: 'in' as const,
        fromNumber: '+12125550201',
        toNumber: o.number,
        body: 'YES',
        segments: 1,
        encoding: 'GSM-7',
        status: 'received' as const,
        createdAt: now,
      },
    ]);
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(customers)
      .set({ optedOut: true, optedOutAt: now })
      .where(eq(customers.id, ann.id));
    await t.database.db
      .update(customers)
      .set({ optedOut: true, optedOutAt: new Date('2026-11-20T12:00:00Z') })
      .where(eq(customers.id, bob.id));
    await t.database.db.update(customers).set({ status: 'offered' }).where(eq(customers.id, dee.id));
    await t.database.db.update(customers).set({ status: 'booked' }).where(eq(customers.id, eve.id));

    const response = await call(t, o.token, 'GET', '/dashboard/earnings');
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    // The all-time figures, as before issue 14.
    expect(data.revenueRecoveredCents).toBe(6500 + 4000 + 9900);
    expect(data.alertsSent).toBe(5);
    expect(data.openingsFilled).toBe(4);
    expect(data.fillRate).toBeCloseTo(4 / 5);
    expect(data.period).toEqual({
      range: 'week',
      from: '2026-11-23',
      to: '2026-11-29',
      timeZone: 'America/New_York',
      revenueRecoveredCents: 10_500,
      openingsOpened: 4,
      openingsFilled: 3,
      openingsDecided: 4,
      fillRate: 0.75,
      medianMinutesToClaim: 20,
      textsSent: 4,
      textsDelivered: 2,
      segmentsSent: 6,
      optOuts: 1,
      waitlistSize: 1,
      // No alert was texted (no offers) and everyone reads English (issue 28).
      alertsByLanguage: { en: 0, es: 0 },
      hasSpanishCustomers: false,
      weeks: [
        {
          weekStart: '2026-11-23',
          revenueRecoveredCents: 10_500,
          openingsOpened: 4,
          openingsFilled: 3,
          fillRate: 0.75,
        },
      ],
    });
  });

  it('cuts weeks on the local wall clock across the spring-forward week (New York, 8 March 2026)', async () => {
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    await seedOpenings(o.id, [
      { at: '2026-03-02T05:00:00Z', status: 'filled', price: 1000 }, // Mon 2 Mar 00:00 EST: first instant
      { at: '2026-03-02T04:59:00Z', status: 'filled', price: 7 }, // Sun 1 Mar 23:59 EST: before the range
      { at: '2026-03-09T03:30:00Z', status: 'filled', price: 2000 }, // Sun 8 Mar 23:30 EDT (Monday in UTC)
      { at: '2026-03-09T04:30:00Z', status: 'filled', price: 3000 }, // Mon 9 Mar 00:30 EDT (Sunday at EST)
      { at: '2026-03-09T05:00:00Z' }, // Mon 9 Mar 01:00 EDT, not filled
      { at: '2026-03-16T03:59:00Z', status: 'filled', price: 4000 }, // Sun 15 Mar 23:59 EDT: last minute
      { at: '2026-03-16T04:00:00Z', status: 'filled', price: 8 }, // Mon 16 Mar 00:00 EDT: after the range
    ]);
    const p = await period(o.token, '?range=custom&from=2026-03-02&to=2026-03-15');
    expect(p.from).toBe('2026-03-02');
    expect(p.to).toBe('2026-03-15');
    expect(p.revenueRecoveredCents).toBe(1000 + 2000 + 3000 + 4000);
    expect(p.openingsOpened).toBe(5);
    expect(p.weeks).toEqual([
      {
        weekStart: '2026-03-02',
        revenueRecoveredCents: 3000,
        openingsOpened: 2,
        openingsFilled: 2,
        fillRate: 1,
      },
      {
        weekStart: '2026-03-09',
        revenueRecoveredCents: 7000,
        openingsOpened: 3,
        openingsFilled: 2,
        // The opening still open is neither filled nor lost: 2 of the 2 decided (issue 27).
        fillRate: 1,
      },
    ]);
  });

  it('handles the fall-back week (the 169-hour week of 1 November 2026)', async () => {
    const o = await owner(t, { plan: 'growth', timeZone: 'America/New_York' });
    await seedOpenings(o.id, [
      { at: '2026-11-01T05:30:00Z', status: 'filled', price: 100 }, // 01:30 EDT, first pass
      { at: '2026-11-01T06:30:00Z', status: 'filled', price: 200 }, // 01:30 EST, second pass
      { at: '2026-11-02T04:59:00Z', status: 'filled', price: 400 }, // Sun 1 Nov 23:59 EST
      { at: '2026-11-02T05:00:00Z', status: 'filled', price: 800 }, // Mon 2 Nov 00:00 EST
    ]);
    const p = await period(o.token, '?range=custom&from=2026-10-26&to=2026-11-08');
    expect(p.weeks.map((w) => [w.weekStart, w.revenueRecoveredCents])).toEqual([
      ['2026-10-26', 700],
      ['2026-11-02', 800],
    ]);
  });

  it('uses a zone far from UTC (Kiritimati, UTC+14) for this week, this month and the last 90 days', async () => {
    // Clock: 2026-11-23 10:00 UTC = Tuesday 24 Nov 00:00 in Kiritimati, so this week is 23–29 Nov there.
    const o = await owner(t, { plan: 'growth', timeZone: 'Pacific/Kiritimati' });
    await seedOpenings(o.id, [
      { at: '2026-11-22T10:00:00Z', status: 'filled', price: 1500 }, // Mon 23 Nov 00:00 local
      { at: '2026-11-22T09:59:00Z', status: 'filled', price: 2500 }, // Sun 22 Nov 23:59 local
      { at: '2026-10-31T09:59:00Z', status: 'filled', price: 50 }, // Sat 31 Oct 23:59 local
      { at: '2026-10-31T10:00:00Z', status: 'filled', price: 60 }, // Sun 1 Nov 00:00 local
    ]);
    const week = await period(o.token, '?range=week');
    expect([week.from, week.to, week.revenueRecoveredCents]).toEqual(['2026-11-23', '2026-11-29', 1500]);
    const month = await period(o.token, '?range=month');
    expect([month.from, month.to, month.revenueRecoveredCents]).toEqual(['2026-11-01', '2026-11-30', 4060]);
    expect(month.weeks.map((w) => w.weekStart)).toEqual([
      '2026-10-26',
      '2026-11-02',
      '2026-11-09',
      '2026-11-16',
      '2026-11-23',
      '2026-11-30',
    ]);
    const ninety = await period(o.token, '?range=90d');
    expect([ninety.from, ninety.to, ninety.revenueRecoveredCents]).toEqual([
      '2026-08-27',
      '2026-11-24',
      4110,
    ]);
    expect(ninety.weeks).toHaveLength(14);
  });

  it('answers zeros and nulls for a new business', async () => {
    const o = await owner(t, { timeZone: 'Pacific/Honolulu' });
    const p = await period(o.token, '?range=week');
    expect(p).toMatchObject({
      from: '2026-11-23',
      revenueRecoveredCents: 0,
      openingsOpened: 0,
      fillRate: null,
      medianMinutesToClaim: null,
      textsSent: 0,
      waitlistSize: 0,
    });
    expect(p.weeks).toEqual([
      {
        weekStart: '2026-11-23',
        revenueRecoveredCents: 0,
        openingsOpened: 0,
        openingsFilled: 0,
        fillRate: null,
      },
    ]);
  });

  it('shows the price of a slot filled through the API as revenue recovered', async () => {
    const o = await owner(t, { plan: 'growth' });
    const customer = await addCustomer(t, o.token, 211, { name: 'Dee Park' });
    const created = await call(t, o.token, 'POST', '/openings', {
      startsAt: new Date(t.clock.now().getTime() + 3 * 3_600_000).toISOString(),
      durationMinutes: 45,
      service: 'Haircut',
      priceCents: 6500,
      mode: 'all',
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.services.conversation.receiveInbound({
      from: customer.phone,
      to: o.number,
      text: 'YES',
      providerMessageId: `dash-${Date.now()}`,
    });
    const p = await period(o.token, '?range=week');
    expect(p.revenueRecoveredCents).toBe(6500);
    expect([p.openingsOpened, p.openingsFilled, p.fillRate]).toEqual([1, 1, 1]);
  });

  it.each([
    ['?range=year', 'range'],
    ['?range=custom', 'from'],
    ['?range=custom&from=2026-03-01', 'to'],
    ['?range=custom&from=2026-02-30&to=2026-03-01', 'from'],
    ['?range=custom&from=03/01/2026&to=2026-03-01', 'from'],
    ['?range=custom&from=2026-03-02&to=2026-03-01', 'to'],
    ['?range=custom&from=2025-01-01&to=2026-03-01', 'to'],
    ['?range=week&from=2026-03-01', 'from'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const o = await owner(t);
    const response = await call(t, o.token, 'GET', `/dashboard/earnings${query}`);
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(Object.keys(body.errors)).toContain(field);
    expect(body.message).toContain(field);
  });
});
