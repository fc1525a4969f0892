import type { Database } from '../../db/client.ts';
import { createDashboardService } from '../../features/dashboard/dashboard.service.ts';
import { createWeeklySummary, createWeeklySummaryWorker } from '../../features/dashboard/weekly-summary.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { dashboardSources, summaryUsers } from '../../wiring.ts';

/** The weekly summary's worker as composition.ts builds it, on `db` with `clock`, for the bench's instances. */
export function benchWeeklySummaryWorker(db: Database, clock: Clock, logger: Logger) {
  const dashboard = createDashboardService({ db, clock, users: summaryUsers, sources: dashboardSources });
  return createWeeklySummaryWorker({
    weeklySummary: createWeeklySummary({
      db,
      clock,
      logger,
      publicUrl: 'http://bench.test',
      owners: summaryUsers,
      period: dashboard.period,
    }),
    logger,
  });
}

/** Errors counted (the first few printed): the bench reports them instead of failing. */
export function countingLogger() {
  const counter = { errors: 0 };
  const logger = {
    info() {},
    warn() {},
    debug() {},
    error(context: unknown, message?: string) {
      counter.errors += 1;
      if (counter.errors <= 3) console.error(message, context);
    },
  } as unknown as Logger;
  return { logger, counter };
}
