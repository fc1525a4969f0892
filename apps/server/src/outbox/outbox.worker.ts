import type { Database } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import type { Logger } from '../lib/logger.ts';
import { createPollingLoop } from '../lib/polling-loop.ts';
import type { EmailMessage, EmailProvider } from '../providers/email/index.ts';
import {
  claimDue,
  deferRow,
  markFailed,
  markSent,
  nextDueAt,
  type OutboxRow,
  outboxStats,
  releaseClaimed,
} from './outbox.repo.ts';

export const OUTBOX_MAX_ATTEMPTS = 8;
const LEASE_MS = 60_000;
const BATCH_SIZE = 10;

/** Exponential backoff: 5 s, 10 s, 20 s … capped at one hour. */
export function retryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** (attempts - 1), 3_600_000);
}

/**
 * ±20 % jitter on a retry delay, so rows that failed together (a provider outage) do not all come back in
 * the same instant when it recovers, from every instance at once.
 */
export const withJitter = (delayMs: number, random: () => number = Math.random) =>
  Math.round(delayMs * (0.8 + 0.4 * random()));

/**
 * Delivers the 'sms' kind (features/messaging/sms-delivery.ts). `done`: nothing to send any more (already
 * sent, opted out), the worker marks the row; `settled`: sent, and the row already marked in the same
 * statement; `deferred`: the account's send rate holds it until then. A throw is retried.
 */
export interface SmsDelivery {
  deliver(
    row: OutboxRow,
    pass: SmsPass,
  ): Promise<{ outcome: 'done' } | { outcome: 'settled' } | { outcome: 'deferred'; until: Date }>;
  /** The outbox gave up on the row (attempts exhausted or a permanent provider error). */
  giveUp(row: OutboxRow, reason: string): Promise<void>;
}
/** State shared by one pass: how many texts of each account were already held back in it. */
export interface SmsPass {
  deferredPerUser: Map<string, number>;
}

/** Delivers the 'push' kind (features/push/push.service.ts createPushDelivery). A throw is retried with the backoff. */
export interface PushDelivery {
  deliver(row: OutboxRow): Promise<void>;
}

export interface OutboxWorker {
  start(): void;
  /** Delivers everything due now; resolves when none is left (tests and shutdown use it). */
  drain(): Promise<number>;
  /** Asks for a pass soon, e.g. right after a request enqueued something. */
  kick(): void;
  /** Finishes the row in flight, hands the rest of the claimed batch back, and stops polling. */
  stop(): Promise<void>;
  /** The row being delivered right now, if any (shutdown reports it when it has to abandon it). */
  inFlight(): { id: string; kind: string } | undefined;
  /** Rows per kind and status, with the oldest one's creation time (metrics). */
  depth(): ReturnType<typeof outboxStats>;
}

/** What the worker tells the metrics about each delivery. */
export type OutboxOutcome = 'sent' | 'retry' | 'dead' | 'deferred';

export function createOutboxWorker(deps: {
  db: Database;
  email: EmailProvider;
  sms?: SmsDelivery;
  push?: PushDelivery;
  clock: Clock;
  logger: Logger;
  pollMs?: number;
  onDelivery?: (kind: string, outcome: OutboxOutcome) => void;
  /** Turns a backoff delay into the one used (the app passes withJitter; unset, the exact backoff). */
  jitter?: (delayMs: number) => number;
}): OutboxWorker {
  const pollMs = deps.pollMs ?? 1000;
  const report = (kind: string, outcome: OutboxOutcome) => deps.onDelivery?.(kind, outcome);
  let stopping = false;
  let current: OutboxRow | undefined;

  async function deliver(row: OutboxRow, pass: SmsPass) {
    try {
      if (row.kind === 'sms') {
        if (!deps.sms) throw new Error('no SMS delivery configured');
        const result = await deps.sms.deliver(row, pass);
        if (result.outcome === 'deferred') {
          await deferRow(deps.db, row.id, result.until);
          report(row.kind, 'deferred');
          return;
        }
        if (result.outcome === 'settled') {
          report(row.kind, 'sent');
          return;
        }
      } else if (row.kind === 'push') {
        if (!deps.push) throw new Error('no push delivery configured');
        await deps.push.deliver(row);
      } else {
        await deps.email.send(row.payload as EmailMessage, { messageId: row.id });
      }
      await markSent(deps.db, row.id, deps.clock.now());
      report(row.kind, 'sent');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      // An SMS provider error may be permanent (an invalid number): no retry. Emails keep the retries.
      const permanent = row.kind === 'sms' && (error as { permanent?: unknown }).permanent === true;
      const retryAt =
        row.attempts < OUTBOX_MAX_ATTEMPTS && !permanent
          ? new Date(deps.clock.now().getTime() + (deps.jitter ?? ((ms) => ms))(retryDelayMs(row.attempts)))
          : null;
      await markFailed(deps.db, row.id, reason, retryAt);
      report(row.kind, retryAt ? 'retry' : 'dead');
      if (!retryAt && row.kind === 'sms') await deps.sms?.giveUp(row, reason);
      deps.logger.warn(
        { outboxId: row.id, attempts: row.attempts, retryAt, err: reason },
        retryAt ? 'outbox delivery failed; will retry' : 'outbox delivery failed for good',
      );
    }
  }

  async function pass(): Promise<number> {
    let delivered = 0;
    const smsPass: SmsPass = { deferredPerUser: new Map() };
    for (;;) {
      const batch = await claimDue(deps.db, deps.clock.now(), BATCH_SIZE, LEASE_MS);
      if (batch.length === 0) return delivered;
      for (const [index, row] of batch.entries()) {
        if (stopping) {
          // Shutting down: rows claimed but not started go back to the queue now, not when the lease ends.
          await releaseClaimed(
            deps.db,
            batch.slice(index).map((rest) => rest.id),
            deps.clock.now(),
          );
          return delivered;
        }
        current = row;
        try {
          await deliver(row, smsPass);
        } finally {
          current = undefined;
        }
        delivered += 1;
      }
      if (stopping) return delivered;
    }
  }

  const loop = createPollingLoop({
    pass,
    pollMs,
    logger: deps.logger,
    failureMessage: 'outbox pass failed',
    afterPass: async () => {
      // Texts held back by the send rate fall due before the next poll: come back for them on time.
      const due = await nextDueAt(deps.db);
      const wait = due ? due.getTime() - deps.clock.now().getTime() : pollMs;
      return Math.max(1, Math.min(pollMs, wait));
    },
  });

  return {
    start: loop.start,
    drain: loop.runOnce,
    kick: loop.kick,
    async stop() {
      stopping = true;
      await loop.stop();
    },
    inFlight: () => (current ? { id: current.id, kind: current.kind } : undefined),
    depth: () => outboxStats(deps.db),
  };
}
