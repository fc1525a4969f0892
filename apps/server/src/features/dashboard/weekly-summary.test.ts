import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { localEmails, openings, users } from '../../db/schema.ts';
import { scheduledRunCount } from '../../jobs/index.ts';
import type { Logger } from '../../lib/logger.ts';
import { createTestApp, latestEmailTo, type TestApp } from '../../test/test-app.ts';
import { dashboardSources, summaryUsers } from '../../wiring.ts';
import { addCustomer, call, owner } from '../waitlist/waitlist.test-helpers.ts';
import { createDashboardService } from './dashboard.service.ts';
import { createWeeklySummary, WEEKLY_SUMMARY_JOB, WEEKLY_SUMMARY_PARTS } from './weekly-summary.ts';

let t: TestApp;
beforeAll(async () => {
  // Monday 2026-11-23 10:00 UTC: 05:00 in New York, 02:00 in Los Angeles, 19:00 in Tokyo.
  // Monday 23 November 2026, 05:00 in New York: the tests move the clock to the summary's hour from here.
  t = await createTestApp({ startAt: new Date('2026-11-23T10:00:00Z') });
});
afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;

/** An owner whose account is older than last week (a new account's first summary is the Monday after). */
async function longtimeOwner(timeZone: string) {
  const o = await owner(t, { plan: 'growth', timeZone });
  await t.database.db
    .update(users)
    .set({ createdAt: new Date('2026-09-01T12:00:00Z') })
    .where(eq(users.id, o.id));
  return o;
}

/** Openings whose alert went out at `at` (UTC), filled `price` cents or left to expire. */
async function seed(userId: string, slots: { at: string; price?: number; filled?: boolean }[]) {
  await t.database.db.insert(openings).values(
    slots.map((slot) => {
      const createdAt = new Date(slot.at);
      const filled = slot.filled ?? true;
      return {
        userId,
        startsAt: new Date(createdAt.getTime() + 86_400_000),
        durationMinutes: 30,
        service: 'Cut',
        priceCents: slot.price ?? 5000,
        status: filled ? ('filled' as const) : ('expired' as const),
        mode: 'all' as const,
        createdAt,
        filledAt: filled ? new Date(createdAt.getTime() + 12 * 60_000) : null,
        localDate: slot.at.slice(0, 10),
      };
    }),
  );
}

/** The weekly summaries `to` received (sign-up sent them other email before). */
async function emailsTo(to: string) {
  await t.app.outbox.drain();
  const all = await t.database.db.select().from(localEmails).where(eq(localEmails.to, to.toLowerCase()));
  return all.filter((email) => email.subject.startsWith('Your waitlist recovered'));
}

describe('the weekly summary email (issue 14)', () => {
  it('goes out Monday from 08:00 in the owner’s time zone with last week’s figures, once', async () => {
    const ny = await longtimeOwner('America/New_York');
    await addCustomer(t, ny.token, 301);
    await addCustomer(t, ny.token, 302);
    await seed(ny.id, [
      { at: '2026-11-16T15:00:00Z', price: 6500 }, // Mon of last week
      { at: '2026-11-22T20:00:00Z', price: 4000 }, // Sun of last week, 15:00 local
      { at: '2026-11-19T15:00:00Z', filled: false },
      { at: '2026-11-23T04:30:00Z', price: 9900 }, // Sun 23:30 local: last week too
      { at: '2026-11-23T09:00:00Z', price: 12_000 }, // Mon 04:00 local: this week, not in the summary
      { at: '2026-11-16T04:00:00Z', price: 7000 }, // Sun 23:00 the week before: not in it either
    ]);

    // 05:00 in New York: too early.
    await t.app.weeklySummaryWorker.runOnce();
    expect(await emailsTo(ny.email)).toHaveLength(0);

    t.clock.advance(3 * HOUR + 5 * 60_000); // 08:05 in New York
    await t.app.weeklySummaryWorker.runOnce();
    const email = await latestEmailTo(t, ny.email);
    expect(email?.subject).toBe('Your waitlist recovered $204.00 this week');
    expect(email?.text).toContain('Week of Nov 16 – Nov 22');
    expect(email?.text).toContain('Openings filled: 3 of 4 opened (75% fill rate)');
    expect(email?.text).toContain('Median time to claim: 12 minutes');
    expect(email?.text).toContain('Customers waiting now: 2');
    expect(email?.text).toContain('http://app.test/dashboard');
    expect(email?.text).toContain(
      'Turn it off on the Information tab of your account: http://app.test/account',
    );
    expect(email?.html).toContain('$204.00');

    // Later passes, and a second instance on the same database, send nothing more.
    await t.app.weeklySummaryWorker.runOnce();
    const second = await buildApp({ config: t.config, database: t.database, clock: t.clock, logger: false });
    try {
      await second.ready();
      await second.weeklySummaryWorker.runOnce();
    } finally {
      await second.close();
    }
    expect(await emailsTo(ny.email)).toHaveLength(1);
    t.clock.advance(-(3 * HOUR + 5 * 60_000));
  });

  it('sends once even when two instances reach the same owner at the same moment', async () => {
    const tokyo = await longtimeOwner('Asia/Tokyo'); // Monday 19:00 there: due now
    const second = await buildApp({ config: t.config, database: t.database, clock: t.clock, logger: false });
    try {
      await second.ready();
      await Promise.all([t.app.weeklySummaryWorker.runOnce(), second.weeklySummaryWorker.runOnce()]);
    } finally {
      await second.close();
    }
    const sent = await emailsTo(tokyo.email);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.subject).toBe('Your waitlist recovered $0.00 this week');
    expect(sent[0]?.text).toContain('Openings filled: 0 of 0 opened');
    expect(await scheduledRunCount(t.database.db, WEEKLY_SUMMARY_JOB)).toBeGreaterThanOrEqual(1);
  });

  it('is not sent outside Monday morning, to a new account, or with the switch off', async () => {
    const la = await longtimeOwner('America/Los_Angeles'); // 02:00 Monday there
    const off = await longtimeOwner('Asia/Tokyo');
    const fresh = await owner(t, { timeZone: 'Asia/Tokyo' }); // signed up this Monday
    const answer = await call(t, off.token, 'PUT', '/dashboard/weekly-summary', { enabled: false });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      success: true,
      message: 'The weekly summary email is off.',
      data: { weeklySummaryEnabled: false },
    });
    await t.app.weeklySummaryWorker.runOnce();
    expect(await emailsTo(la.email)).toHaveLength(0);
    expect(await emailsTo(off.email)).toHaveLength(0);
    expect(await emailsTo(fresh.email)).toHaveLength(0);

    // Turned back on, it goes out on this Monday still.
    const on = await call(t, off.token, 'PUT', '/dashboard/weekly-summary', { enabled: true });
    expect(on.json().data.weeklySummaryEnabled).toBe(true);
    await t.app.weeklySummaryWorker.runOnce();
    expect(await emailsTo(off.email)).toHaveLength(1);
  });

  it('refuses a switch that is not true or false, and changes nothing', async () => {
    const o = await owner(t);
    const bad = await call(t, o.token, 'PUT', '/dashboard/weekly-summary', { enabled: 'no' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ enabled: 'enabled must be true or false.' });
    const me = await call(t, o.token, 'GET', '/auth/me');
    expect(me.json().user?.weeklySummaryEnabled ?? me.json().data?.weeklySummaryEnabled).toBe(true);
  });

  it('counts the week in the owner’s time zone across the end of daylight saving time', async () => {
    // The week of Mon Oct 26 – Sun Nov 1, 2026 in New York: EDT (UTC−4) until Nov 1 02:00, then EST (UTC−5).
    t.clock.advance(Date.parse('2026-11-02T13:10:00Z') - t.clock.now().getTime()); // Mon Nov 2, 08:10 EST
    try {
      const ny = await longtimeOwner('America/New_York');
      await seed(ny.id, [
        { at: '2026-10-26T04:30:00Z', price: 1000 }, // Mon Oct 26 00:30 EDT: in
        { at: '2026-10-26T03:30:00Z', price: 2000 }, // Sun Oct 25 23:30 EDT: the week before
        { at: '2026-11-02T04:30:00Z', price: 3000 }, // Sun Nov 1 23:30 EST: in
        { at: '2026-11-02T05:30:00Z', price: 4000 }, // Mon Nov 2 00:30 EST: this week
      ]);
      await t.app.weeklySummaryWorker.runOnce();
      const email = await latestEmailTo(t, ny.email);
      expect(email?.subject).toBe('Your waitlist recovered $40.00 this week');
      expect(email?.text).toContain('Week of Oct 26 – Nov 1');
    } finally {
      t.clock.advance(Date.parse('2026-11-23T10:00:00Z') - t.clock.now().getTime());
    }
  });
});

/**
 * A weekly summary built as composition.ts builds it, on the test database, that records what each pass
 * read: how many times it asked for owners, whose figures it computed. `failFor` makes one owner's figures throw.
 */
function observedSummary(options: { failFor?: string } = {}) {
  const seen = { ownerReads: 0, computed: [] as string[], errors: [] as unknown[] };
  const dashboard = createDashboardService({
    db: t.database.db,
    clock: t.clock,
    users: summaryUsers,
    sources: dashboardSources,
  });
  const logger = {
    info() {},
    warn() {},
    debug() {},
    error: (context: unknown) => seen.errors.push(context),
  } as unknown as Logger;
  const summary = createWeeklySummary({
    db: t.database.db,
    clock: t.clock,
    logger,
    publicUrl: 'http://app.test',
    owners: {
      weeklySummaryZones: summaryUsers.weeklySummaryZones,
      dueWeeklySummaryOwners: (executor, query) => {
        seen.ownerReads += 1;
        return summaryUsers.dueWeeklySummaryOwners(executor, query);
      },
    },
    period: (user, range, custom, now) => {
      seen.computed.push(user.id);
      if (user.id === options.failFor) return Promise.reject(new Error('the report query failed'));
      return dashboard.period(user, range, custom, now);
    },
  });
  return { summary, seen };
}

/** `count` verified owners with the summary on in `timeZone`, signed up long before this week (inserted). */
async function manyOwners(count: number, timeZone: string) {
  const tag = Math.random().toString(36).slice(2, 8);
  return t.database.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        firstName: `Owner${i}`,
        lastName: 'Many',
        email: `many-${tag}-${i}@example.com`,
        verified: true,
        businessName: `Shop ${i}`,
        timeZone,
        createdAt: new Date('2026-09-01T12:00:00Z'),
      })),
    )
    .returning({ id: users.id, email: users.email });
}

/** How many weekly summaries each address received (after the outbox has handed them over). */
async function summariesPerAddress(addresses: string[]) {
  await t.app.outbox.drain();
  const sent = await t.database.db.select().from(localEmails).where(inArray(localEmails.to, addresses));
  const counts = new Map<string, number>();
  for (const email of sent) {
    if (email.subject.startsWith('Your waitlist recovered'))
      counts.set(email.to, (counts.get(email.to) ?? 0) + 1);
  }
  return addresses.map((address) => counts.get(address) ?? 0);
}

describe('the weekly summary pass reads only who is due (issue 30)', () => {
  const at = (iso: string) => t.clock.set(new Date(iso));
  const MONDAY_10_UTC = '2026-11-23T10:00:00Z';

  it('reads no owner on a Tuesday or before 08:00 on Monday, and none twice once all are sent', async () => {
    const [tokyo] = await manyOwners(1, 'Asia/Tokyo');
    try {
      const { summary, seen } = observedSummary();
      at('2026-11-24T10:00:00Z'); // Tuesday everywhere in use
      expect(await summary.runDue()).toBe(0);
      at('2026-11-22T22:00:00Z'); // Monday 07:00 in Tokyo, Sunday in the Americas
      expect(await summary.runDue()).toBe(0);
      expect(seen.ownerReads).toBe(0);

      at('2026-11-23T00:00:00Z'); // Monday 09:00 in Tokyo
      expect(await summary.runDue()).toBeGreaterThanOrEqual(1);
      expect(seen.computed).toContain(tokyo!.id);
      expect(await summariesPerAddress([tokyo!.email])).toEqual([1]);

      // Everyone due has theirs: the next pass asks once, finds nobody and computes nothing.
      const computed = seen.computed.length;
      const reads = seen.ownerReads;
      expect(await summary.runDue()).toBe(0);
      expect(seen.ownerReads).toBe(reads + 1);
      expect(seen.computed).toHaveLength(computed);
      expect(await scheduledRunCount(t.database.db, `${WEEKLY_SUMMARY_JOB}:lease`)).toBe(0);
    } finally {
      at(MONDAY_10_UTC);
    }
  });

  it('splits the work between two instances: each summary once, each owner computed by one of them', async () => {
    at(MONDAY_10_UTC); // Monday 11:00 in Berlin
    const berlin = await manyOwners(3 * WEEKLY_SUMMARY_PARTS, 'Europe/Berlin');
    const a = observedSummary();
    const b = observedSummary();
    const [queuedByA, queuedByB] = await Promise.all([a.summary.runDue(), b.summary.runDue()]);

    const ids = berlin.map((o) => o.id);
    const byA = a.seen.computed.filter((id) => ids.includes(id));
    const byB = b.seen.computed.filter((id) => ids.includes(id));
    // Both did part of the work, and no owner's figures were computed twice.
    expect(byA.length).toBeGreaterThan(0);
    expect(byB.length).toBeGreaterThan(0);
    expect(byA.filter((id) => byB.includes(id))).toEqual([]);
    expect(new Set([...byA, ...byB]).size).toBe(ids.length);
    expect(queuedByA + queuedByB).toBeGreaterThanOrEqual(ids.length);
    expect(await summariesPerAddress(berlin.map((o) => o.email))).toEqual(berlin.map(() => 1));
    // Another pass of either sends nothing more.
    expect(await a.summary.runDue()).toBe(0);
    expect(await scheduledRunCount(t.database.db, `${WEEKLY_SUMMARY_JOB}:lease`)).toBe(0);
  });

  it('leaves an owner whose figures fail due for the next pass, and sends the others (an alias zone too)', async () => {
    at(MONDAY_10_UTC); // Monday 15:30 in India, named by its older alias
    const calcutta = await manyOwners(3, 'Asia/Calcutta');
    const failing = calcutta[1]!;
    const first = observedSummary({ failFor: failing.id });
    await first.summary.runDue();
    expect(first.seen.errors).toHaveLength(1);
    expect(await summariesPerAddress(calcutta.map((o) => o.email))).toEqual([1, 0, 1]);

    const next = observedSummary();
    expect(await next.summary.runDue()).toBe(1);
    expect(next.seen.computed).toEqual([failing.id]);
    expect(await summariesPerAddress(calcutta.map((o) => o.email))).toEqual([1, 1, 1]);
  });
});
