import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { EmailMessage, EmailProvider } from '../../providers/email/index.ts';
import { claimDue, markFailed, markSent, type OutboxRow } from './outbox.repo.ts';

export const OUTBOX_MAX_ATTEMPTS = 8;
const LEASE_MS = 60_000;
const BATCH_SIZE = 10;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** (attempts - 1), 3_600_000);
}

export interface OutboxWorker {
  start(): void;
  /** Delivers everything due now; resolves when none is left (tests and shutdown use it). */
  drain(): Promise<number>;
  /** Asks for a pass soon, e.g. right after a request enqueued something. */
  kick(): void;
  stop(): Promise<void>;
}

export function createOutboxWorker(deps: {
  db: Database;
  email: EmailProvider;
  clock: Clock;
  logger: Logger;
  pollMs?: number;
}): OutboxWorker {
  const pollMs = deps.pollMs ?? 1000;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;

  async function deliver(row: OutboxRow) {
    try {
      await deps.email.send(row.payload as EmailMessage);
      await markSent(deps.db, row.id, deps.clock.now());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retryAt =
        row.attempts < OUTBOX_MAX_ATTEMPTS
          ? new Date(deps.clock.now().getTime() + retryDelayMs(row.attempts))
          : null;
      await markFailed(deps.db, row.id, reason, retryAt);
      deps.logger.warn(
        { outboxId: row.id, attempts: row.attempts, retryAt, err: reason },
        retryAt ? 'outbox delivery failed; will retry' : 'outbox delivery failed for good',
      );
    }
  }

  async function pass(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await claimDue(deps.db, deps.clock.now(), BATCH_SIZE, LEASE_MS);
      if (batch.length === 0) return delivered;
      for (const row of batch) await deliver(row);
      delivered += batch.length;
    }
  }

  function drain(): Promise<number> {
    // One pass at a time per process; a caller arriving mid-pass waits for it and then runs another.
    const next = (running ?? Promise.resolve(0)).then(pass, pass).finally(() => {
      if (running === next) running = undefined;
    });
    running = next;
    return next;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      drain()
        .catch((error) => deps.logger.error({ err: error }, 'outbox pass failed'))
        .finally(() => schedule(pollMs));
    }, delay);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    drain,
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
