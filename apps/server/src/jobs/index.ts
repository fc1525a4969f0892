/**
 * Scheduled jobs (issue 17), a module of its own like the outbox: this file is the only way in. A job's due
 * item runs once across every instance through a `scheduled_runs` row committed with the work.
 */
export {
  notRunSql,
  releaseLease,
  renewLease,
  scheduledRunCount,
  takeLease,
} from './scheduled-runs.repo.ts';
export { runOncePerDueItem } from './scheduled-runs.ts';
