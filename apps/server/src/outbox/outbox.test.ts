import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { createManualClock } from '../lib/clock.ts';
import type { EmailMessage, EmailProvider } from '../providers/email/index.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { claimDue, enqueueEmail } from './outbox.repo.ts';
import { createOutboxWorker, OUTBOX_MAX_ATTEMPTS, retryDelayMs, withJitter } from './outbox.worker.ts';

const silent = { info() {}, warn() {}, error() {}, debug() {} };

/** Stands in for the mail server: records what it was given and fails while `failures` lasts. */
function recordingProvider(options: { failures?: number; delayMs?: number } = {}) {
  let failuresLeft = options.failures ?? 0;
  const sent: EmailMessage[] = [];
  const provider: EmailProvider & { sent: EmailMessage[]; calls: number } = {
    name: 'smtp',
    sent,
    calls: 0,
    async send(message) {
      provider.calls += 1;
      if (options.delayMs) await sleep(options.delayMs);
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        throw new Error('451 try again later');
      }
      sent.push(message);
    },
    async close() {},
  };
  return provider;
}

const message = (n: number): EmailMessage => ({
  to: `customer${n}@example.com`,
  subject: `Message ${n}`,
  text: `Hello ${n}`,
  html: `<p>Hello ${n}</p>`,
});

let database: DatabaseHandle;
let clock: ReturnType<typeof createManualClock>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
beforeEach(async () => {
  await database.db.delete(outbox);
  clock = createManualClock(new Date('2026-11-23T10:00:00Z'));
});

const workerWith = (email: EmailProvider) =>
  createOutboxWorker({ db: database.db, email, clock, logger: silent });
const rows = () => database.db.select().from(outbox).orderBy(outbox.createdAt);

describe('retryDelayMs', () => {
  it('backs off exponentially from 5 seconds, capped at one hour', () => {
    expect([1, 2, 3, 4, 5].map(retryDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(11)).toBe(3_600_000);
    expect(retryDelayMs(50)).toBe(3_600_000);
  });
});

describe('withJitter', () => {
  it('spreads a retry delay over ±20 % so rows that failed together come back apart', () => {
    expect(withJitter(10_000, () => 0)).toBe(8_000);
    expect(withJitter(10_000, () => 0.5)).toBe(10_000);
    expect(withJitter(10_000, () => 0.999_999)).toBe(12_000);
    const spread = new Set(Array.from({ length: 50 }, () => withJitter(10_000)));
    expect(spread.size).toBeGreaterThan(10);
    for (const delay of spread) expect(delay).toBeGreaterThanOrEqual(8_000);
    for (const delay of spread) expect(delay).toBeLessThanOrEqual(12_000);
  });
});

describe('outbox worker', () => {
  it('delivers a queued email once and marks it sent', async () => {
    const email = recordingProvider();
    const worker = workerWith(email);
    await enqueueEmail(database.db, message(1), clock.now());
    expect(await worker.drain()).toBe(1);
    expect(email.sent).toEqual([message(1)]);
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null, sentAt: clock.now() });
    // Nothing is sent twice.
    clock.advance(3_600_000);
    expect(await worker.drain()).toBe(0);
    expect(email.calls).toBe(1);
  });

  it('retries a failed delivery with backoff and keeps the reason until it goes through', async () => {
    const email = recordingProvider({ failures: 2 });
    const worker = workerWith(email);
    await enqueueEmail(database.db, message(1), clock.now());

    await worker.drain();
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: '451 try again later' });
    expect(row!.nextAttemptAt.getTime() - clock.now().getTime()).toBe(retryDelayMs(1));

    // Not due yet: nothing is tried.
    clock.advance(retryDelayMs(1) - 1);
    await worker.drain();
    expect(email.calls).toBe(1);

    clock.advance(1);
    await worker.drain();
    [row] = await rows();
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row!.nextAttemptAt.getTime() - clock.now().getTime()).toBe(retryDelayMs(2));

    clock.advance(retryDelayMs(2));
    await worker.drain();
    [row] = await rows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3, lastError: null });
    expect(email.sent).toEqual([message(1)]);
    expect(email.calls).toBe(3);
  });

  it(`gives up after ${OUTBOX_MAX_ATTEMPTS} attempts and marks the email dead`, async () => {
    const email = recordingProvider({ failures: Number.POSITIVE_INFINITY });
    const worker = workerWith(email);
    await enqueueEmail(database.db, message(1), clock.now());
    for (let attempt = 1; attempt <= OUTBOX_MAX_ATTEMPTS; attempt++) {
      await worker.drain();
      const [row] = await rows();
      expect(row!.attempts).toBe(attempt);
      expect(row!.status).toBe(attempt < OUTBOX_MAX_ATTEMPTS ? 'pending' : 'dead');
      clock.advance(retryDelayMs(attempt));
    }
    expect(email.calls).toBe(OUTBOX_MAX_ATTEMPTS);
    clock.advance(24 * 3_600_000);
    await worker.drain();
    expect(email.calls).toBe(OUTBOX_MAX_ATTEMPTS);
    expect((await rows())[0]).toMatchObject({
      status: 'dead',
      lastError: '451 try again later',
      sentAt: null,
    });
  });

  it('never sends an email queued in a transaction that rolled back', async () => {
    const email = recordingProvider();
    const worker = workerWith(email);
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueEmail(tx, message(1), clock.now());
        throw new Error('the change that caused the email failed');
      }),
    ).rejects.toThrow('the change that caused the email failed');
    await database.db.transaction(async (tx) => {
      await enqueueEmail(tx, message(2), clock.now());
    });
    await worker.drain();
    expect(email.sent).toEqual([message(2)]);
    expect(await rows()).toHaveLength(1);
  });

  it('two workers draining at once deliver every email exactly once', async () => {
    const email = recordingProvider({ delayMs: 2 });
    const first = workerWith(email);
    const second = workerWith(email);
    const total = 25;
    for (let n = 0; n < total; n++) await enqueueEmail(database.db, message(n), clock.now());

    const [a, b] = await Promise.all([first.drain(), second.drain()]);
    expect(a + b).toBe(total);
    expect(email.calls).toBe(total);
    expect(email.sent.map((sent) => sent.to).sort()).toEqual(
      Array.from({ length: total }, (_, n) => message(n).to).sort(),
    );
    const after = await rows();
    expect(after.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
  });

  it('retries an email whose worker died mid-send once its lease runs out (nothing is lost)', async () => {
    await enqueueEmail(database.db, message(1), clock.now());
    // A worker claims the row and then disappears before it can mark the outcome.
    const [claimed] = await claimDue(database.db, clock.now(), 10, 60_000);
    expect(claimed!.attempts).toBe(1);

    const email = recordingProvider();
    const worker = workerWith(email);
    await worker.drain();
    expect(email.calls).toBe(0);
    clock.advance(60_000);
    await worker.drain();
    expect(email.sent).toEqual([message(1)]);
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('on stop, finishes the email in hand and hands the rest of its batch back at once (shutdown)', async () => {
    const email = recordingProvider({ delayMs: 100 });
    const worker = workerWith(email);
    for (let n = 0; n < 5; n++) await enqueueEmail(database.db, message(n), clock.now());
    const draining = worker.drain();
    while (email.calls === 0) await sleep(5);
    expect(worker.inFlight()).toMatchObject({ kind: 'email' });
    await worker.stop();
    expect(await draining).toBe(1);
    expect(email.sent).toHaveLength(1);
    const after = await rows();
    expect(after.filter((row) => row.status === 'sent')).toHaveLength(1);
    const handedBack = after.filter((row) => row.status === 'pending');
    expect(handedBack).toHaveLength(4);
    // Due now and the attempt not counted: another instance takes them without waiting for the lease.
    for (const row of handedBack) {
      expect(row.attempts).toBe(0);
      expect(row.nextAttemptAt.getTime()).toBe(clock.now().getTime());
    }
    expect(worker.inFlight()).toBeUndefined();
  });

  it('sends due emails oldest first and leaves future ones for later', async () => {
    const email = recordingProvider();
    const worker = workerWith(email);
    await enqueueEmail(database.db, message(2), new Date(clock.now().getTime() - 1000));
    await enqueueEmail(database.db, message(1), new Date(clock.now().getTime() - 2000));
    await enqueueEmail(database.db, message(3), new Date(clock.now().getTime() + 1000));
    expect(await worker.drain()).toBe(2);
    expect(email.sent.map((sent) => sent.subject)).toEqual(['Message 1', 'Message 2']);
    clock.advance(1000);
    expect(await worker.drain()).toBe(1);
  });
});
