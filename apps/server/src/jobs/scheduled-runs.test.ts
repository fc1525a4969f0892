import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { outbox } from '../db/schema.ts';
import { systemClock } from '../lib/clock.ts';
import { enqueueEmail } from '../outbox/outbox.repo.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { scheduledRunCount } from './scheduled-runs.repo.ts';
import { runOncePerDueItem } from './scheduled-runs.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const weeklyEmail = (n: number) => ({
  to: `owner${n}@example.com`,
  subject: 'Your week',
  text: 'Your week',
  html: '<p>Your week</p>',
});

describe('runOncePerDueItem', () => {
  it('runs a due item once however many workers reach it at the same time', async () => {
    const deps = { db: database.db, clock: systemClock };
    let runs = 0;
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () =>
        runOncePerDueItem(deps, 'weekly-email', 'user-1:2026-W48', async (tx) => {
          runs += 1;
          await enqueueEmail(tx, weeklyEmail(1), systemClock.now());
          return 'queued';
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(attempts.filter((attempt) => attempt.ran)).toEqual([{ ran: true, result: 'queued' }]);
    expect(await database.db.select().from(outbox)).toHaveLength(1);
    // Another due item (next week) is its own run.
    expect((await runOncePerDueItem(deps, 'weekly-email', 'user-1:2026-W49', async () => 'queued')).ran).toBe(
      true,
    );
    expect(await scheduledRunCount(database.db, 'weekly-email')).toBe(2);
  });

  it('leaves the item due when the run fails, and nothing it wrote is kept', async () => {
    const deps = { db: database.db, clock: systemClock };
    const before = (await database.db.select().from(outbox)).length;
    await expect(
      runOncePerDueItem(deps, 'weekly-email', 'user-2:2026-W48', async (tx) => {
        await enqueueEmail(tx, weeklyEmail(2), systemClock.now());
        throw new Error('the report query failed');
      }),
    ).rejects.toThrow('the report query failed');
    expect(await database.db.select().from(outbox)).toHaveLength(before);
    const retried = await runOncePerDueItem(deps, 'weekly-email', 'user-2:2026-W48', async () => 'queued');
    expect(retried.ran).toBe(true);
  });
});
