import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import { releaseSendSlot, takeSendSlot } from '../../lib/rate-limit.ts';
import type { SmsDelivery, SmsOutboxPayload } from '../../outbox/index.ts';
import { type SmsProvider, SmsProviderError } from '../../providers/sms/index.ts';
import {
  knownProviderMessageIds,
  loadTextToSend,
  markMessageFailed,
  markMessageSent,
  markSendStarted,
} from './messaging.repo.ts';

/** How long a send may hold its account's slot (the provider's timeout is 10 s). */
const SEND_LEASE_MS = 15_000;
const INLINE_WAIT_MS = 20;
/** How far the provider's clock may lag ours when we ask it what it sent since an interrupted send began. */
const PROVIDER_CLOCK_SKEW_MS = 60_000;

/**
 * The outbox's 'sms' kind. Never sends twice: a message no longer 'queued' is skipped, and the provider gets
 * the message id as idempotency key. Never faster than `sendRate` texts per second per account: each send
 * takes the account's slot in the database first and frees it one interval after the provider answered; a
 * text that finds the slot taken waits for its turn (the n-th held back in a pass goes n intervals after the
 * slot frees), without counting an attempt.
 */
export function createSmsDelivery(deps: {
  db: Database;
  sms: SmsProvider;
  clock: Clock;
  logger: Logger;
  sendRate: number;
}): SmsDelivery {
  const intervalMs = 1000 / deps.sendRate;

  return {
    async deliver(row, pass) {
      const payload = row.payload as SmsOutboxPayload;
      const loaded = await loadTextToSend(deps.db, payload.messageId);
      const message = loaded?.message;
      if (!loaded || message?.status !== 'queued') return { outcome: 'done' };

      // Rules that may have changed since the text was queued: STOP, or the number lost its verification.
      if (loaded.senderStatus !== 'verified' || loaded.senderNumber !== message.fromNumber) {
        await markMessageFailed(deps.db, message.id, 'The text number is not verified.');
        return { outcome: 'done' };
      }
      if (loaded.customerOptedOut && !payload.compliance) {
        await markMessageFailed(deps.db, message.id, 'The customer opted out before it was sent.');
        return { outcome: 'done' };
      }

      // A previous attempt called the provider and never stored its answer (the worker died mid-call, or the
      // call timed out): ask the provider whether the text went out before sending it again.
      if (message.sendStartedAt && deps.sms.findSent) {
        const found = await deps.sms.findSent({
          from: message.fromNumber,
          to: message.toNumber,
          since: new Date(message.sendStartedAt.getTime() - PROVIDER_CLOCK_SKEW_MS),
          // The call could not have been taken later than the send's lease on the slot.
          until: new Date(message.sendStartedAt.getTime() + SEND_LEASE_MS + PROVIDER_CLOCK_SKEW_MS),
        });
        const known = await knownProviderMessageIds(deps.db, found);
        const providerMessageId = found.find((id) => !known.has(id));
        if (providerMessageId) {
          deps.logger.warn(
            { messageId: message.id, providerMessageId },
            'text had gone out before the worker could record it; not sending it again',
          );
          await markMessageSent(deps.db, message.id, { providerMessageId, status: 'sent' }, deps.clock.now());
          return { outcome: 'done' };
        }
      }

      let now = deps.clock.now();
      let busy = await takeSendSlot(deps.db, message.userId, now, intervalMs, SEND_LEASE_MS);
      // A slot that frees within a few milliseconds (high rates) is waited for here: cheaper than putting
      // the row back and claiming it again. Longer waits (5/s: 200 ms) put the row back.
      for (let tries = 0; busy && tries < 3; tries += 1) {
        const wait = busy.freeAt.getTime() - now.getTime();
        if (wait > INLINE_WAIT_MS) break;
        await sleep(Math.max(wait, 0) + 0.5);
        now = deps.clock.now();
        busy = await takeSendSlot(deps.db, message.userId, now, intervalMs, SEND_LEASE_MS);
      }
      if (busy) {
        const queuedBefore = pass.deferredPerUser.get(message.userId) ?? 0;
        pass.deferredPerUser.set(message.userId, queuedBefore + 1);
        const freeAt = Math.max(busy.freeAt.getTime(), now.getTime());
        return { outcome: 'deferred', until: new Date(freeAt + queuedBefore * intervalMs) };
      }

      let result: Awaited<ReturnType<SmsProvider['send']>>;
      const asksBeforeResend = Boolean(deps.sms.findSent);
      if (asksBeforeResend) await markSendStarted(deps.db, message.id, now);
      try {
        result = await deps.sms.send({
          from: message.fromNumber,
          to: message.toNumber,
          text: message.body,
          idempotencyKey: message.id,
        });
      } catch (error) {
        // The provider answered with an error status: it did not take the text, no need to ask next time.
        const refused = error instanceof SmsProviderError && error.statusCode !== undefined;
        if (asksBeforeResend && refused) await markSendStarted(deps.db, message.id, null);
        await releaseSendSlot(deps.db, message.userId, new Date(deps.clock.now().getTime() + intervalMs));
        throw error;
      }
      // The message is marked handed over first, then the account's slot frees one interval later; the outbox
      // then marks its row sent ('done'). Two statements, no transaction (issue 16: two round trips fewer per
      // text): a crash between them leaves the slot held until its lease ends (SEND_LEASE_MS), which delays
      // the account's next text but never sends one twice, as freeing it first could.
      const answeredAt = deps.clock.now();
      const marked = await markMessageSent(deps.db, message.id, result, answeredAt);
      await releaseSendSlot(deps.db, message.userId, new Date(answeredAt.getTime() + intervalMs));
      if (!marked) deps.logger.warn({ messageId: message.id }, 'text was no longer queued after sending');
      return { outcome: 'done' };
    },

    async giveUp(row, reason) {
      const payload = row.payload as SmsOutboxPayload;
      await markMessageFailed(deps.db, payload.messageId, reason.slice(0, 500));
    },
  };
}
