import type { EarningsWeek } from '@waitlist/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { customers, messages, openings } from '../../db/schema.ts';

/** One range: [lo, hi) as instants, and its first/last local dates for the weekly series. */
export interface RangeBounds {
  userId: string;
  timeZone: string;
  lo: Date;
  hi: Date;
  fromDate: string;
  toDate: string;
}

export interface RangeTotals {
  revenueRecoveredCents: number;
  openingsOpened: number;
  openingsFilled: number;
  medianMinutesToClaim: number | null;
  textsSent: number;
  textsDelivered: number;
  optOuts: number;
  waitlistSize: number;
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * The range's figures in one statement. Each part reads an index on (user_id, created_at)
 * (openings_user_created_at_idx, messages_user_idx, customers_user_opted_out_at_idx).
 */
export async function rangeTotals(executor: Executor, b: RangeBounds): Promise<RangeTotals> {
  const lo = b.lo.toISOString();
  const hi = b.hi.toISOString();
  const result = await executor.execute(sql`
    with o as (
      select count(*)::int as opened,
        count(*) filter (where status = 'filled')::int as filled,
        coalesce(sum(price_cents) filter (where status = 'filled'), 0)::bigint as revenue,
        percentile_cont(0.5) within group (order by extract(epoch from (filled_at - created_at)) / 60)
          filter (where status = 'filled' and filled_at is not null) as median_minutes
      from ${openings}
      where user_id = ${b.userId} and created_at >= ${lo}::timestamptz and created_at < ${hi}::timestamptz
    ), m as (
      select count(*) filter (where status in ('sent', 'delivered', 'undelivered'))::int as sent,
        count(*) filter (where status = 'delivered')::int as delivered
      from ${messages}
      where user_id = ${b.userId} and direction = 'out'
        and created_at >= ${lo}::timestamptz and created_at < ${hi}::timestamptz
    )
    select o.opened, o.filled, o.revenue::text as revenue, o.median_minutes, m.sent, m.delivered,
      (select count(*)::int from ${customers} c
        where c.user_id = ${b.userId} and c.opted_out
          and c.opted_out_at >= ${lo}::timestamptz and c.opted_out_at < ${hi}::timestamptz) as opt_outs,
      (select count(*)::int from ${customers} c
        where c.user_id = ${b.userId} and c.status <> 'removed') as waitlist_size
    from o, m`);
  const [row] = rowsOf<{
    opened: number;
    filled: number;
    revenue: string;
    median_minutes: number | string | null;
    sent: number;
    delivered: number;
    opt_outs: number;
    waitlist_size: number;
  }>(result);
  return {
    revenueRecoveredCents: Number(row?.revenue ?? 0),
    openingsOpened: Number(row?.opened ?? 0),
    openingsFilled: Number(row?.filled ?? 0),
    medianMinutesToClaim:
      row?.median_minutes === null || row?.median_minutes === undefined
        ? null
        : Math.round(Number(row.median_minutes) * 10) / 10,
    textsSent: Number(row?.sent ?? 0),
    textsDelivered: Number(row?.delivered ?? 0),
    optOuts: Number(row?.opt_outs ?? 0),
    waitlistSize: Number(row?.waitlist_size ?? 0),
  };
}

/**
 * One row per week (Monday start in the business's zone) overlapping the range, counting openings within
 * the range. Weeks are cut on the local wall clock (`created_at at time zone`), so a week with a
 * daylight-saving change is 167 or 169 hours long and every opening lands in its local week.
 */
export async function weeklySeries(executor: Executor, b: RangeBounds): Promise<EarningsWeek[]> {
  const result = await executor.execute(sql`
    with weeks as (
      select gs::date as week_start
      from generate_series(date_trunc('week', ${b.fromDate}::date::timestamp),
        ${b.toDate}::date::timestamp, interval '1 week') as gs
    ), agg as (
      select date_trunc('week', created_at at time zone ${b.timeZone})::date as week_start,
        count(*)::int as opened,
        count(*) filter (where status = 'filled')::int as filled,
        coalesce(sum(price_cents) filter (where status = 'filled'), 0)::bigint as revenue
      from ${openings}
      where user_id = ${b.userId} and created_at >= ${b.lo.toISOString()}::timestamptz
        and created_at < ${b.hi.toISOString()}::timestamptz
      group by 1
    )
    select to_char(w.week_start, 'YYYY-MM-DD') as week_start, coalesce(a.opened, 0)::int as opened,
      coalesce(a.filled, 0)::int as filled, coalesce(a.revenue, 0)::text as revenue
    from weeks w left join agg a on a.week_start = w.week_start
    order by w.week_start`);
  return rowsOf<{ week_start: string; opened: number; filled: number; revenue: string }>(result).map(
    (row) => ({
      weekStart: row.week_start,
      revenueRecoveredCents: Number(row.revenue),
      openingsOpened: Number(row.opened),
      openingsFilled: Number(row.filled),
      fillRate: Number(row.opened) > 0 ? Number(row.filled) / Number(row.opened) : null,
    }),
  );
}

/** All time (the answer before issue 14, unchanged). */
export async function allTime(executor: Executor, userId: string) {
  const result = await executor.execute(sql`
    select coalesce(sum(price_cents) filter (where status = 'filled'), 0)::bigint::text as revenue,
      count(*)::int as alerts,
      count(*) filter (where status = 'filled')::int as filled,
      count(*) filter (where status <> 'open')::int as decided,
      avg(extract(epoch from (filled_at - created_at)) / 60) filter (where status = 'filled') as avg_fill
    from ${openings} where user_id = ${userId}`);
  const [row] = rowsOf<{
    revenue: string;
    alerts: number;
    filled: number;
    decided: number;
    avg_fill: number | string | null;
  }>(result);
  return {
    revenue: Number(row?.revenue ?? 0),
    alerts: Number(row?.alerts ?? 0),
    filled: Number(row?.filled ?? 0),
    decided: Number(row?.decided ?? 0),
    avgFill: row?.avg_fill === null || row?.avg_fill === undefined ? null : Number(row.avg_fill),
  };
}
