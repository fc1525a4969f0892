import type { Logger } from '../../lib/logger.ts';
import { createPollingLoop } from '../../lib/polling-loop.ts';
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
  const { start, runOnce, stop } = createPollingLoop({
    pass: () => deps.openingsService.runDue(),
    pollMs: deps.pollMs ?? 15_000,
    logger: deps.logger,
    failureMessage: 'openings pass failed',
    afterPass: ({ expired, wavesSent }) => {
      if (expired || wavesSent) deps.logger.info({ expired, wavesSent }, 'openings: expiries and waves');
    },
  });
  return { start, runOnce, stop };
}
