import type {
  DashboardRange,
  Earnings,
  EarningsPeriod,
  EarningsQuery,
  EarningsWeek,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { localDate, wallClock, zonedToUtc } from '../../lib/time-zone.ts';

/** One owner's range: [lo, hi) as instants, and its first/last local dates for the weekly series. */
export interface RangeBounds {
  userId: string;
  timeZone: string;
  lo: Date;
  hi: Date;
  fromDate: string;
  toDate: string;
}

/**
 * Where the dashboard's figures come from: each table's own repo (openings, messages, customers), handed
 * over in composition.ts (decision 0008). The dashboard owns no table.
 */
export interface DashboardSources {
  openingTotals(
    executor: Executor,
    range: RangeBounds,
  ): Promise<{
    revenueRecoveredCents: number;
    openingsOpened: number;
    openingsFilled: number;
    openingsDecided: number;
    medianMinutesToClaim: number | null;
  }>;
  weeklyOpenings(executor: Executor, range: RangeBounds): Promise<EarningsWeek[]>;
  allTimeOpenings(
    executor: Executor,
    userId: string,
  ): Promise<{ revenue: number; alerts: number; filled: number; decided: number; avgFill: number | null }>;
  textTotals(
    executor: Executor,
    range: RangeBounds,
  ): Promise<{ textsSent: number; textsDelivered: number; segmentsSent: number }>;
  optOutsAndWaitlistSize(
    executor: Executor,
    range: RangeBounds,
  ): Promise<{ optOuts: number; waitlistSize: number }>;
  /** The alerts texted in the range per customer language, and whether anyone reads Spanish (issue 28). */
  alertsByLanguage(
    executor: Executor,
    range: RangeBounds,
  ): Promise<{ alertsByLanguage: { en: number; es: number }; hasSpanishCustomers: boolean }>;
}

/** YYYY-MM-DD plus `days` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + days)).toISOString().slice(0, 10);
}

/** Midnight starting the local date `date` in `timeZone`, as an instant. */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number);
  return zonedToUtc({ year: year!, month: month!, day: day! }, timeZone);
}

/** The first and last local dates of a range, for `now` in `timeZone`. */
export function rangeDates(
  range: DashboardRange,
  now: Date,
  timeZone: string,
  custom: { from?: string; to?: string } = {},
): { from: string; to: string } {
  const today = localDate(now, timeZone);
  switch (range) {
    case 'week': {
      const monday = addDays(today, -((wallClock(now, timeZone).weekday + 6) % 7));
      return { from: monday, to: addDays(monday, 6) };
    }
    case 'month': {
      const first = `${today.slice(0, 8)}01`;
      const [y, m] = first.split('-').map(Number);
      const last = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
      return { from: first, to: last };
    }
    case '90d':
      return { from: addDays(today, -89), to: today };
    case 'custom':
      return { from: custom.from ?? today, to: custom.to ?? today };
  }
}

export function createDashboardService(deps: {
  db: Database;
  clock: Clock;
  /** The owner's weekly summary switch (features/auth's repo owns `users`). */
  users: { setWeeklySummary(executor: Executor, id: string, enabled: boolean): Promise<UserRow | undefined> };
  sources: DashboardSources;
}) {
  const { db, clock, sources } = deps;

  async function period(
    user: Pick<UserRow, 'id' | 'timeZone'>,
    range: DashboardRange,
    custom: { from?: string; to?: string } = {},
    now: Date = clock.now(),
  ): Promise<EarningsPeriod> {
    const timeZone = user.timeZone;
    const { from, to } = rangeDates(range, now, timeZone, custom);
    const bounds: RangeBounds = {
      userId: user.id,
      timeZone,
      lo: startOfLocalDay(from, timeZone),
      hi: startOfLocalDay(addDays(to, 1), timeZone),
      fromDate: from,
      toDate: to,
    };
    const [openings, texts, customers, weeks, languages] = await Promise.all([
      sources.openingTotals(db, bounds),
      sources.textTotals(db, bounds),
      sources.optOutsAndWaitlistSize(db, bounds),
      sources.weeklyOpenings(db, bounds),
      sources.alertsByLanguage(db, bounds),
    ]);
    return {
      range,
      from,
      to,
      timeZone,
      ...openings,
      ...texts,
      ...customers,
      ...languages,
      // Of the decided openings only: one still open is neither filled nor lost yet (issue 27).
      fillRate: openings.openingsDecided > 0 ? openings.openingsFilled / openings.openingsDecided : null,
      weeks,
    };
  }

  return {
    period,

    /** PUT /dashboard/weekly-summary: the Monday email on or off; answers the updated user. */
    async setWeeklySummary(user: UserRow, enabled: boolean): Promise<UserRow> {
      return (await deps.users.setWeeklySummary(db, user.id, enabled)) ?? user;
    },

    /** GET /dashboard/earnings: the all-time figures (unchanged) and the requested range (default: this week). */
    async earnings(user: UserRow, query: EarningsQuery = {}): Promise<Earnings> {
      const [all, ranged] = await Promise.all([
        sources.allTimeOpenings(db, user.id),
        period(user, query.range ?? 'week', { from: query.from, to: query.to }),
      ]);
      return {
        revenueRecoveredCents: all.revenue,
        alertsSent: all.alerts,
        fillRate: all.decided > 0 ? all.filled / all.decided : 0,
        avgTimeToFillMinutes: all.avgFill === null ? null : Math.round(all.avgFill * 10) / 10,
        openingsFilled: all.filled,
        period: ranged,
      };
    },
  };
}
export type DashboardService = ReturnType<typeof createDashboardService>;
