import type { EarningsWeek } from '@waitlist/contract';
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { openings } from '../../db/schema.ts';

/** The earnings dashboard's figures from `openings` (features/dashboard owns no table; wiring.ts hands these over). */

/**
 * What a filled opening earned: what its winner booked, fixed at the claim (issue 39: her own service's price
 * when she waits for another), or the slot's price for a claim made before that was stored.
 */
const bookedPrice = sql`coalesce(${openings.bookedPriceCents}, ${openings.priceCents})`;

/** One owner's activity between two instants, [lo, hi). */
export interface OwnerRange {
  userId: string;
  lo: Date;
  hi: Date;
}

/** Openings in the range: opened, filled, revenue and the median minutes to a claim (openings_user_created_at_idx). */
export async function openingTotals(executor: Executor, range: OwnerRange) {
  const result = await executor.execute(sql`
    select count(*)::int as opened,
      count(*) filter (where status = 'filled')::int as filled,
      count(*) filter (where status <> 'open')::int as decided,
      coalesce(sum(${bookedPrice}) filter (where status = 'filled'), 0)::bigint::text as revenue,
      percentile_cont(0.5) within group (order by extract(epoch from (filled_at - created_at)) / 60)
        filter (where status = 'filled' and filled_at is not null) as median_minutes
    from ${openings}
    where user_id = ${range.userId} and created_at >= ${range.lo.toISOString()}::timestamptz
      and created_at < ${range.hi.toISOString()}::timestamptz`);
  const [row] = (
    result as unknown as {
      rows: {
        opened: number;
        filled: number;
        decided: number;
        revenue: string;
        median_minutes: number | string | null;
      }[];
    }
  ).rows;
  const median = row?.median_minutes;
  return {
    revenueRecoveredCents: Number(row?.revenue ?? 0),
    openingsOpened: Number(row?.opened ?? 0),
    openingsFilled: Number(row?.filled ?? 0),
    openingsDecided: Number(row?.decided ?? 0),
    medianMinutesToClaim:
      median === null || median === undefined ? null : Math.round(Number(median) * 10) / 10,
  };
}

/**
 * One row per week (Monday start in the business's zone) from `fromDate` to `toDate`, counting openings
 * within the range. Weeks are cut on the local wall clock (`created_at at time zone`), so a week with a
 * daylight-saving change is 167 or 169 hours long and every opening lands in its local week.
 */
export async function weeklyOpenings(
  executor: Executor,
  range: OwnerRange & { timeZone: string; fromDate: string; toDate: string },
): Promise<EarningsWeek[]> {
  const result = await executor.execute(sql`
    with weeks as (
      select gs::date as week_start
      from generate_series(date_trunc('week', ${range.fromDate}::date::timestamp),
        ${range.toDate}::date::timestamp, interval '1 week') as gs
    ), agg as (
      select date_trunc('week', created_at at time zone ${range.timeZone})::date as week_start,
        count(*)::int as opened,
        count(*) filter (where status = 'filled')::int as filled,
        count(*) filter (where status <> 'open')::int as decided,
        coalesce(sum(${bookedPrice}) filter (where status = 'filled'), 0)::bigint as revenue
      from ${openings}
      where user_id = ${range.userId} and created_at >= ${range.lo.toISOString()}::timestamptz
        and created_at < ${range.hi.toISOString()}::timestamptz
      group by 1
    )
    select to_char(w.week_start, 'YYYY-MM-DD') as week_start, coalesce(a.opened, 0)::int as opened,
      coalesce(a.filled, 0)::int as filled, coalesce(a.decided, 0)::int as decided,
      coalesce(a.revenue, 0)::text as revenue
    from weeks w left join agg a on a.week_start = w.week_start
    order by w.week_start`);
  const rows = (
    result as unknown as {
      rows: { week_start: string; opened: number; filled: number; decided: number; revenue: string }[];
    }
  ).rows;
  return rows.map((row) => ({
    weekStart: row.week_start,
    revenueRecoveredCents: Number(row.revenue),
    openingsOpened: Number(row.opened),
    openingsFilled: Number(row.filled),
    // Of the decided openings only: one still open is neither filled nor lost yet (issue 27).
    fillRate: Number(row.decided) > 0 ? Number(row.filled) / Number(row.decided) : null,
  }));
}

/** All time (the earnings answer before issue 14, unchanged). */
export async function allTimeOpenings(executor: Executor, userId: string) {
  const [row] = await executor
    .select({
      revenue: sql<string>`coalesce(sum(${bookedPrice}) filter (where ${openings.status} = 'filled'), 0)::bigint::text`,
      alerts: sql<number>`count(*)::int`,
      filled: sql<number>`count(*) filter (where ${openings.status} = 'filled')::int`,
      decided: sql<number>`count(*) filter (where ${openings.status} <> 'open')::int`,
      avgFill: sql<
        string | null
      >`avg(extract(epoch from (${openings.filledAt} - ${openings.createdAt})) / 60) filter (where ${openings.status} = 'filled')`,
    })
    .from(openings)
    .where(eq(openings.userId, userId));
  return {
    revenue: Number(row?.revenue ?? 0),
    alerts: Number(row?.alerts ?? 0),
    filled: Number(row?.filled ?? 0),
    decided: Number(row?.decided ?? 0),
    avgFill: row?.avgFill === null || row?.avgFill === undefined ? null : Number(row.avgFill),
  };
}
