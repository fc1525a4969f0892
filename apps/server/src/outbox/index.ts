/**
 * The outbox's public face (docs/decisions/0002 and 0008): the only way anything else writes an outbox row.
 * Enqueue inside the caller's transaction; after that transaction commits, the caller wakes the worker with
 * the `wakeOutbox` it was given in composition.ts (never before the commit, so the worker finds the rows).
 */
export {
  enqueueEmail,
  enqueuePushDelivery,
  enqueueSmsDelivery,
  enqueueSmsDeliverySql,
  markSentSql,
  type OutboxRow,
  type PushOutboxPayload,
  type SmsOutboxPayload,
} from './outbox.repo.ts';
export {
  createOutboxWorker,
  type OutboxOutcome,
  type OutboxWorker,
  type PushDelivery,
  retryDelayMs,
  type SmsDelivery,
  withJitter,
} from './outbox.worker.ts';
