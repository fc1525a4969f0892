import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SmsDelivery, SmsOutboxPayload } from '../../outbox/index.ts';
import { type SmsProvider, SmsProviderError } from '../../providers/sms/index.ts';
import {
  knownProviderMessageIds,
  markMessageFailed,
  prepareTextSending,
  type TextToSend,
} from './text-sending.repo.ts';

/** How long a send may hold its account's slot (the provider's timeout is 10 s). */
const SEND_LEASE_MS = 15_000;
const INLINE_WAIT_MS = 20;
/** How far the provider's clock may lag ours when we ask it what it sent since an interrupted send began. */
const PROVIDER_CLOCK_SKEW_MS = 60_000;

interface SmsDeliveryDeps {
  db: Database;
  sms: SmsProvider;
  clock: Clock;
  logger: Logger;
  sendRate: number;
}

/** What every step of one delivery works with: the dependencies, the prepared statements and the interval. */
interface DeliveryContext {
  deps: SmsDeliveryDeps;
  sending: ReturnType<typeof prepareTextSending>;
  intervalMs: number;
}

/** Takes (or looks again at) the message's slot at `now`: the text as it stands, undefined when gone. */
type Begin = (now: Date) => Promise<TextToSend | undefined>;

type Settled = { outcome: 'settled' };
type ProviderAnswer = Awaited<ReturnType<SmsProvider['send']>>;
type Abort = (sendStartedAt: Date | null | 'keep') => Promise<void>;

/**
 * The outbox's 'sms' kind. Never sends twice: a message no longer 'queued' is skipped, and the provider gets
 * the message id as idempotency key. Never faster than `sendRate` texts per second per account: each send
 * takes the account's slot in the database first and frees it one interval after the provider answered; a
 * text that finds the slot taken waits for its turn (the n-th held back in a pass goes n intervals after the
 * slot frees), without counting an attempt.
 */
export function createSmsDelivery(deps: SmsDeliveryDeps): SmsDelivery {
  const intervalMs = 1000 / deps.sendRate;
  const sending = prepareTextSending(deps.db);
  const asksBeforeResend = Boolean(deps.sms.findSent);
  const context: DeliveryContext = { deps, sending, intervalMs };

  return {
    async deliver(row, pass) {
      const payload = row.payload as SmsOutboxPayload;
      const begin: Begin = (now) =>
        sending.begin({
          messageId: payload.messageId,
          compliance: payload.compliance === true,
          now,
          lease: new Date(now.getTime() + SEND_LEASE_MS),
          marksStart: asksBeforeResend,
        });
      const first = deps.clock.now();
      const queued = await begin(first);
      if (queued?.status !== 'queued') return { outcome: 'done' };

      // Rules that may have changed since the text was queued: STOP, or the number lost its verification.
      // (The slot is taken only for a text that passes them.)
      if (queued.senderStatus !== 'verified' || queued.senderNumber !== queued.fromNumber) {
        await markMessageFailed(deps.db, queued.id, 'The text number is not verified.');
        return { outcome: 'done' };
      }
      if (queued.customerOptedOut && !payload.compliance) {
        await markMessageFailed(deps.db, queued.id, 'The customer opted out before it was sent.');
        return { outcome: 'done' };
      }

      const waited = await waitForSlotInline(context, begin, queued, first);
      if (!waited) return { outcome: 'done' };
      const { text, now } = waited;
      if (!text.slotTaken) {
        // Further away than one interval: another worker's send is in flight; look again one interval later.
        const queuedBefore = pass.deferredPerUser.get(text.userId) ?? 0;
        pass.deferredPerUser.set(text.userId, queuedBefore + 1);
        const until = Math.max(slotFreeAt(text, now, intervalMs), now.getTime());
        return { outcome: 'deferred', until: new Date(until + queuedBefore * intervalMs) };
      }
      return sendHoldingSlot(context, text, row.id);
    },

    async giveUp(row, reason) {
      const payload = row.payload as SmsOutboxPayload;
      await markMessageFailed(deps.db, payload.messageId, reason.slice(0, 500));
    },
  };
}

/**
 * When the slot frees as `read` saw it at `at`: its end, but never later than one interval from now.
 * The slot's end is read from the statement's snapshot, while taking it checks the latest row: a slot
 * another instance took after the snapshot reads as free or absent. It is held, so look again one
 * interval later (the earlier two-statement read saw the new end and waited the same).
 */
function slotFreeAt(read: TextToSend, at: Date, intervalMs: number) {
  const soonest = at.getTime() + intervalMs;
  const ends = read.slotFreeAt?.getTime();
  return ends !== undefined && ends > at.getTime() ? Math.min(ends, soonest) : soonest;
}

/**
 * A slot that frees within a few milliseconds (high rates) is waited for here: cheaper than putting
 * the row back and claiming it again. Longer waits (5/s: 200 ms) put the row back.
 * The text as last read and when (its slot taken or not), or undefined when it is no longer queued.
 */
async function waitForSlotInline(
  { deps, intervalMs }: DeliveryContext,
  begin: Begin,
  queued: TextToSend,
  first: Date,
): Promise<{ text: TextToSend; now: Date } | undefined> {
  let text = queued;
  let now = first;
  for (let tries = 0; !text.slotTaken && tries < 3; tries += 1) {
    const wait = slotFreeAt(text, now, intervalMs) - now.getTime();
    if (wait > INLINE_WAIT_MS) break;
    await sleep(Math.max(wait, 0) + 0.5);
    now = deps.clock.now();
    const again = await begin(now);
    if (again?.status !== 'queued') return undefined;
    text = again;
  }
  return { text, now };
}

/** Sends a text whose slot is taken, unless the provider says an interrupted attempt already sent it. */
async function sendHoldingSlot(
  { deps, sending, intervalMs }: DeliveryContext,
  sent: TextToSend,
  outboxId: string,
): Promise<Settled> {
  // From here the slot is held: every way out frees it (finish, or abort) or leaves it to its lease.
  const finish = async (result: { providerMessageId: string; status: 'sent' | 'delivered' }) => {
    const answeredAt = deps.clock.now();
    const marked = await sending.finish({
      messageId: sent.id,
      userId: sent.userId,
      outboxId,
      result,
      now: answeredAt,
      freeAt: new Date(answeredAt.getTime() + intervalMs),
    });
    if (!marked) deps.logger.warn({ messageId: sent.id }, 'text was no longer queued after sending');
    return { outcome: 'settled' as const };
  };
  const abort: Abort = (sendStartedAt) =>
    sending.abort({
      messageId: sent.id,
      userId: sent.userId,
      freeAt: new Date(deps.clock.now().getTime() + intervalMs),
      sendStartedAt,
    });

  const providerMessageId = await askProviderBeforeResend(deps, sent, abort);
  if (providerMessageId) {
    deps.logger.warn(
      { messageId: sent.id, providerMessageId },
      'text had gone out before the worker could record it; not sending it again',
    );
    return finish({ providerMessageId, status: 'sent' });
  }
  // The answer, the slot freed one interval later and the outbox row marked sent: one statement, so a crash
  // leaves either all three or none (then the mark tells the next attempt to ask the provider first).
  return finish(await sendToProvider(deps, sent, abort));
}

/**
 * A previous attempt called the provider and never stored its answer (the worker died mid-call, or the
 * call timed out): ask the provider whether the text went out before sending it again. The provider's id
 * for it if it did.
 */
async function askProviderBeforeResend(
  deps: SmsDeliveryDeps,
  sent: TextToSend,
  abort: Abort,
): Promise<string | undefined> {
  const previous = sent.previousSendStartedAt;
  if (!previous || !deps.sms.findSent) return undefined;
  try {
    const found = await deps.sms.findSent({
      from: sent.fromNumber,
      to: sent.toNumber,
      since: new Date(previous.getTime() - PROVIDER_CLOCK_SKEW_MS),
      // The call could not have been taken later than the send's lease on the slot.
      until: new Date(previous.getTime() + SEND_LEASE_MS + PROVIDER_CLOCK_SKEW_MS),
    });
    const known = await knownProviderMessageIds(deps.db, found);
    return found.find((id) => !known.has(id));
  } catch (error) {
    // Nothing was sent this time: the earlier attempt's mark stays what the next attempt asks about.
    await abort(previous);
    throw error;
  }
}

async function sendToProvider(
  deps: SmsDeliveryDeps,
  sent: TextToSend,
  abort: Abort,
): Promise<ProviderAnswer> {
  try {
    return await deps.sms.send({
      from: sent.fromNumber,
      to: sent.toNumber,
      text: sent.body,
      idempotencyKey: sent.id,
    });
  } catch (error) {
    // The provider answered with an error status: it did not take the text, no need to ask next time. Any
    // other failure (a timeout) leaves the outcome unknown: the mark stays for the next attempt to ask.
    const refused = error instanceof SmsProviderError && error.statusCode !== undefined;
    await abort(refused ? null : 'keep');
    throw error;
  }
}
