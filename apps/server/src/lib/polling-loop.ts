import { withoutQueryValues } from './db-errors.ts';
import type { Logger } from './logger.ts';

export interface PollingLoop<T> {
  /** Runs a pass now, then keeps polling until stop(). */
  start(): void;
  /** One pass now. One pass at a time per process: a caller arriving mid-pass waits for it, then runs another. */
  runOnce(): Promise<T>;
  /** Brings the next scheduled pass forward to now (when started). */
  kick(): void;
  /** Stops polling and waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * The background loop every worker shares (outbox, billing, openings): passes never overlap within a
 * process, a failed pass is logged and retried at the next poll, and timers never hold the process open.
 */
export function createPollingLoop<T>(options: {
  pass: () => Promise<T>;
  pollMs: number;
  logger: Logger;
  /** Logged with the error when a pass (or afterPass) throws. */
  failureMessage: string;
  /** Sees each pass's result; may return how long to wait before the next pass (default pollMs). */
  afterPass?: (result: T) => Promise<number | undefined> | number | undefined;
}): PollingLoop<T> {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<T> | undefined;
  let stopped = true;

  function runOnce(): Promise<T> {
    const next = (running ?? Promise.resolve()).then(options.pass, options.pass).finally(() => {
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
        .then((result) => options.afterPass?.(result))
        .catch((error) => {
          options.logger.error({ err: withoutQueryValues(error) }, options.failureMessage);
          return undefined;
        })
        .then((wait) => schedule(wait ?? options.pollMs));
    }, delay);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    runOnce,
    kick() {
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
