import { randomInt } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SmsProvider } from './types.ts';

/** 555-0100 … 555-0199 are reserved for fiction in every North American area code: never a real phone. */
export function isLocalTestNumber(number: string) {
  return /^\+1\d{3}55501\d{2}$/.test(number);
}

/**
 * The embedded default: texts stay in the messages table (the outbox already wrote them there) and show
 * at /dev/phone, where a reply goes through the same inbound code as a real one. Numbers come from the
 * 555-01xx test range and are verified at once.
 */
export function createLocalSmsProvider(deps: {
  db: Database;
  logger: Logger;
  /** Texts (with their links) reach the log only on a loopback HOST (issue 12). */
  logTexts?: boolean;
}): SmsProvider {
  return {
    name: 'local',

    async send(request) {
      deps.logger.info(
        { phone: '/dev/phone', to: request.to, from: request.from },
        deps.logTexts === false ? `text to ${request.to}` : `text to ${request.to}: ${request.text}`,
      );
      // Derived from our message id: a second send of the same message could never be stored twice.
      return { providerMessageId: `local-${request.idempotencyKey}`, status: 'delivered' };
    },

    async searchNumber(areaCode?: string) {
      const area = areaCode ?? '555';
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const number = `+1${area}55501${String(randomInt(100)).padStart(2, '0')}`;
        const taken = await deps.db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.plivoNumber, number))
          .limit(1);
        if (taken.length === 0) return number;
      }
      return null;
    },

    async ensureApplication() {
      return 'local';
    },

    async rentNumber() {},

    async numberStatus() {
      return { status: 'verified' };
    },
  };
}
