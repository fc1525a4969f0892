import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { LocalBillingProvider } from './local.ts';
import { addToClockOffset, clearClockOffset, offsetMs } from './local-billing.repo.ts';
import type { SubscriptionContext } from './local-subscriptions.ts';

/** What every piece of the local provider works with: the database, the clocks and the public URL. */
export interface LocalBillingContext extends SubscriptionContext {
  db: Database;
  /** The injected (real) clock; sessions expire by it. */
  clock: Clock;
}

export function createLocalBillingContext(deps: {
  db: Database;
  clock: Clock;
  publicUrl: string;
}): LocalBillingContext {
  const { db, clock, publicUrl } = deps;
  // The billing clock: the injected clock plus the offset `advanceClock` moved it by.
  async function billingNow(executor: Executor): Promise<Date> {
    return new Date(clock.now().getTime() + (await offsetMs(executor)));
  }
  return { db, clock, publicUrl, billingNow };
}

/** The test tools' control of the billing clock (POST /dev/billing/advance). */
export function localClockControls({
  db,
  billingNow,
}: LocalBillingContext): Pick<LocalBillingProvider, 'now' | 'clockOffsetMs' | 'advanceClock' | 'resetClock'> {
  return {
    now: () => billingNow(db),
    clockOffsetMs: () => offsetMs(db),

    async advanceClock(ms) {
      await addToClockOffset(db, ms);
      return billingNow(db);
    },

    async resetClock() {
      await clearClockOffset(db);
      return billingNow(db);
    },
  };
}
