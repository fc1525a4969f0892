import { createServer, type Socket } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { usedNonces } from '../db/schema.ts';
import { useNonce } from '../nonces/index.ts';
import { createTestDatabase } from '../test/test-app.ts';
import { createRateLimiter } from './rate-limit.ts';

let database: DatabaseHandle;
// Stands in for Redis: accepts the client's connection and never answers (no counter is asked for here).
const sockets: Socket[] = [];
const silentRedis = createServer((socket) => sockets.push(socket));
let redisUrl = '';
beforeAll(async () => {
  database = await createTestDatabase();
  await new Promise<void>((resolve) => silentRedis.listen(0, '127.0.0.1', resolve));
  redisUrl = `redis://127.0.0.1:${(silentRedis.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silentRedis.close(resolve));
  await database.close();
});

describe('used nonces clean-up (issue 24)', () => {
  // With Redis the counters are not in the database, but the nonces are: the sweep runs either way.
  it.each([
    ['the database store', false],
    ['the Redis store', true],
  ])('deletes the nonces whose window ended, keeps the live ones (%s)', async (_store, withRedis) => {
    const db = database.db;
    const now = new Date();
    const scope = `sweep-${withRedis ? 'redis' : 'db'}`;
    const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000);
    expect(await useNonce(db, scope, 'ended', at(-1), at(-2))).toBe(true);
    expect(await useNonce(db, scope, 'live', at(60), now)).toBe(true);
    const limiter = createRateLimiter({
      db,
      redisUrl: withRedis ? redisUrl : undefined,
      sweepIntervalMs: 20,
      logger: { warn: () => {} },
    });
    try {
      const left = async () =>
        (
          await db.select({ nonce: usedNonces.nonce }).from(usedNonces).where(eq(usedNonces.scope, scope))
        ).map((row) => row.nonce);
      await expect.poll(left, { timeout: 5000 }).toEqual(['live']);
    } finally {
      await limiter.close();
    }
  });
});
