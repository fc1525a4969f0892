import type { Logger } from '../../lib/logger.ts';
import type { OpeningsService } from './openings.service.ts';

export interface OpeningsWorker {
  start(): void;
  /** One pass now (expiries, next waves) by the injected clock; tests call it after moving the clock. */
  runOnce(): ReturnType<OpeningsService['runDue']>;
  stop(): Promise<void>;
}

/** Polls for openings whose start passed (expire) and waves whose claim window ran out (next wave). */
export function createOpeningsWorker(deps: {
  openingsService: OpeningsService;
  logger: Logger;
  pollMs?: number;
}): OpeningsWorker {
  const pollMs = deps.pollMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  let running: ReturnType<OpeningsService['runDue']> | undefined;
  let stopped = true;

  function runOnce() {
    const pass = () => deps.openingsService.runDue();
    const next = (running ?? Promise.resolve()).then(pass, pass).finally(() => {
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
        .then(({ expired, wavesSent }) => {
          if (expired || wavesSent) deps.logger.info({ expired, wavesSent }, 'openings: expiries and waves');
        })
        .catch((error) => deps.logger.error({ err: error }, 'openings pass failed'))
        .finally(() => schedule(pollMs));
    }, delay);
    timer.unref();
  }

  return {
    start() {
      stopped = false;
      schedule(0);
    },
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}
