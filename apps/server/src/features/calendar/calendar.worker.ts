import type { Logger } from '../../lib/logger.ts';
import { createPollingLoop } from '../../lib/polling-loop.ts';
import type { createBookings } from './bookings.ts';
import type { CalendarService } from './calendar.service.ts';
import type { Proposals } from './proposals.ts';

export interface CalendarWorker {
  start(): void;
  /** One pass now (due reads, then due automatic openings) by the injected clock; tests call it. */
  runOnce(): Promise<{ synced: number; proposed: number; opened: number; booked: number; renewed: number }>;
  kick(): void;
  stop(): Promise<void>;
}

/**
 * Reads the connected calendars that are due (each by one instance: a lease) and opens the automatic
 * proposals whose grace period ended (each by one instance: SKIP LOCKED), and writes claimed slots back into
 * the calendars (each booking by one instance), and renews Google's and Microsoft's push channels before they
 * end (each by one instance), every 15 seconds; a push kicks a pass at once.
 */
export function createCalendarWorker(deps: {
  calendarService: CalendarService;
  proposals: Proposals;
  bookings: ReturnType<typeof createBookings>;
  logger: Logger;
  pollMs?: number;
}): CalendarWorker {
  return createPollingLoop({
    pass: async () => {
      const { synced, proposed } = await deps.calendarService.syncDue();
      const opened = await deps.proposals.openDue();
      const booked = await deps.bookings.runDue();
      const renewed = await deps.calendarService.push.renewDue();
      return { synced, proposed, opened, booked, renewed };
    },
    pollMs: deps.pollMs ?? 15_000,
    logger: deps.logger,
    failureMessage: 'calendar pass failed',
    afterPass: ({ proposed, opened }) => {
      if (proposed || opened)
        deps.logger.info({ proposed, opened }, 'calendar: cancellations found and slots opened');
    },
  });
}
