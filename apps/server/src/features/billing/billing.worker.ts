import type { Logger } from '../../lib/logger.ts';
import { createPollingLoop } from '../../lib/polling-loop.ts';
import type { BillingService } from './billing.service.ts';

export interface BillingWorker {
  start(): void;
  /** One pass now: period ends due on the billing clock, then expired trials. Tests and the dev route use it. */
  runOnce(): ReturnType<BillingService['applyDue']>;
  stop(): Promise<void>;
}

/**
 * Applies what time makes due (issue 4): local renewals (a new invoice paid with the default card, or past_due
 * and an email when it fails), scheduled downgrades, cancellations at period end, and trials that ended.
 * Each subscription is handled under its customer's row lock with idempotent invoices, so several server
 * instances may run this side by side.
 */
export function createBillingWorker(deps: {
  billingService: BillingService;
  logger: Logger;
  pollMs?: number;
}): BillingWorker {
  const { start, runOnce, stop } = createPollingLoop({
    pass: () => deps.billingService.applyDue(),
    pollMs: deps.pollMs ?? 60_000,
    logger: deps.logger,
    failureMessage: 'billing pass failed',
    afterPass: ({ outcomes, trialsExpired }) => {
      if (outcomes.length || trialsExpired) {
        deps.logger.info(
          { periodEnds: outcomes.length, trialsExpired },
          'billing: applied period ends and trial expiries',
        );
      }
    },
  });
  return { start, runOnce, stop };
}
