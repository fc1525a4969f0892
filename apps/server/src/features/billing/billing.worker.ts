import type { Logger } from '../../lib/logger.ts';
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
  const pollMs = deps.pollMs ?? 60_000;
  let timer: NodeJS.Timeout | undefined;
  let running: ReturnType<BillingService['applyDue']> | undefined;
  let stopped = true;

  function runOnce() {
    // One pass at a time per process; a caller arriving mid-pass waits for it and then runs another.
    const pass = () => deps.billingService.applyDue();
    const next = (running ?? Promise.resolve()).then(pass, pass).finally(() => {
      if (running === next) running = undefined;
    });
    running = next;
    return next;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      runOnce()
        .then(({ outcomes, trialsExpired }) => {
          if (outcomes.length || trialsExpired) {
            deps.logger.info(
              { periodEnds: outcomes.length, trialsExpired },
              'billing: applied period ends and trial expiries',
            );
          }
        })
        .catch((error) => deps.logger.error({ err: error }, 'billing pass failed'))
        .finally(() => schedule(pollMs));
    }, delay);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
