import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startInstance } from '../../test/instance.ts';

/**
 * SIGTERM always ends the process (issue 27): a server whose output is piped to a reader that has gone
 * (a log collector that died, a closed pipe) still closes and exits within its shutdown deadline, though
 * it can no longer write its last log lines. Before, the first write after the reader left (EPIPE) broke
 * the shutdown and the watchdog alike, and the process stayed alive with its listener closed.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'wt-epipe-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM and the last log lines', () => {
  it('with its reader there, writes them all and exits 0', { timeout: 90_000 }, async () => {
    const instance = await startInstance({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_SECONDS: '3',
    });
    const ended = await instance.stop(15_000);
    expect(ended).toEqual({ code: 0, signal: null });
    expect(instance.log()).toContain('shutdown complete: nothing abandoned');
  });

  it('with its output pipe closed, still exits 0 within the shutdown deadline', {
    timeout: 90_000,
  }, async () => {
    const instance = await startInstance({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      SHUTDOWN_TIMEOUT_SECONDS: '3',
    });
    // The reader goes away: both pipes are closed on our side, so the server's next write fails with EPIPE.
    instance.child.stdout?.destroy();
    instance.child.stderr?.destroy();
    const started = Date.now();
    instance.child.kill('SIGTERM');
    const ended = await Promise.race([
      instance.exited,
      new Promise<'alive'>((resolve) => setTimeout(() => resolve('alive'), 15_000)),
    ]);
    if (ended === 'alive') instance.child.kill('SIGKILL');
    expect(ended).not.toBe('alive');
    // A clean exit, not the watchdog's SIGKILL: the last log lines are given up, the shutdown completes.
    expect(ended).toEqual({ code: 0, signal: null });
    // Within the shutdown deadline (3 s), with room for a busy machine.
    expect(Date.now() - started).toBeLessThan(3_000 + 2_000);
  });
});
