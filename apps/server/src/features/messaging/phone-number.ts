import type { Database, Executor } from '../../db/client.ts';
import type { NumberChange, NumberFields, UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError, BadRequest, Conflict, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { type SmsProvider, SmsProviderError } from '../../providers/sms/index.ts';
import { messagingMessages } from './messaging.messages.ts';

/** The business's dedicated number (features/auth's repo owns `users`; wiring.ts hands these over). */
export interface BusinessNumbers {
  findSender(
    executor: Executor,
    userId: string,
  ): Promise<(Pick<UserRow, 'id' | 'businessName' | 'plainSpanishLetters'> & NumberFields) | undefined>;
  setPhoneNumber(executor: Executor, userId: string, values: NumberChange, now: Date): Promise<unknown>;
  /** True for the one request that may rent a number now (the row moved to "pending, no number yet"). */
  claimNumberRequest(executor: Executor, userId: string, now: Date, staleAfter: Date): Promise<boolean>;
}

/** A number request left unfinished (a crash between claiming and renting) may be claimed again after this. */
const NUMBER_REQUEST_STALE_MS = 2 * 60 * 1000;

export type PhoneNumberState = {
  number: string | null;
  status: 'pending' | 'verified' | 'failed' | null;
  error: string | null;
};

/** The business's dedicated number: renting one (at most one request at a time) and its verification. */
export function createPhoneNumbers(deps: {
  db: Database;
  clock: Clock;
  sms: SmsProvider;
  logger: Logger;
  publicUrl: string;
  numbers: BusinessNumbers;
}) {
  const { db, clock, sms } = deps;

  async function getPhoneNumber(userId: string): Promise<PhoneNumberState> {
    const sender = await deps.numbers.findSender(db, userId);
    if (!sender) throw new NotFound(messagingMessages.customerNotFound);
    return {
      number: sender.plivoNumber,
      status: sender.plivoNumberStatus,
      error: sender.plivoNumberStatus === 'failed' ? sender.plivoNumberError : null,
    };
  }

  async function viaProvider<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof SmsProviderError) {
        deps.logger.error({ err: error.message }, 'SMS provider call failed');
        throw new AppError(502, messagingMessages.providerUnavailable);
      }
      throw error;
    }
  }

  async function requestPhoneNumber(userId: string, areaCode?: string): Promise<PhoneNumberState> {
    const current = await getPhoneNumber(userId);
    if (current.number && current.status !== 'failed') throw new Conflict(messagingMessages.alreadyHasNumber);
    // Renting costs money: the row is claimed first, in one conditional UPDATE, so a burst of requests rents
    // one number (issue 24), not one each with the last one kept.
    const now = clock.now();
    const claimed = await deps.numbers.claimNumberRequest(
      db,
      userId,
      now,
      new Date(now.getTime() - NUMBER_REQUEST_STALE_MS),
    );
    if (!claimed) throw new Conflict(messagingMessages.alreadyHasNumber);
    const released = () =>
      deps.numbers.setPhoneNumber(
        db,
        userId,
        { plivoNumber: null, plivoNumberStatus: null, plivoNumberError: null },
        clock.now(),
      );
    let number: string | null;
    try {
      number = await viaProvider(async () => {
        const found = await sms.searchNumber(areaCode);
        if (!found) return null;
        const appId = await sms.ensureApplication(`${deps.publicUrl}/api/v1/webhooks/plivo/message`);
        await sms.rentNumber(found, appId);
        return found;
      });
    } catch (error) {
      await released();
      throw error;
    }
    if (!number) {
      await released();
      throw new BadRequest(messagingMessages.noNumberAvailable(areaCode), {
        areaCode: messagingMessages.noNumberAvailable(areaCode),
      });
    }
    await deps.numbers.setPhoneNumber(
      db,
      userId,
      { plivoNumber: number, plivoNumberStatus: 'pending', plivoNumberError: null },
      clock.now(),
    );
    return { number, status: 'pending', error: null };
  }

  async function verifyPhoneNumber(userId: string): Promise<PhoneNumberState> {
    const current = await getPhoneNumber(userId);
    if (!current.number) throw new BadRequest(messagingMessages.requestFirst);
    if (current.status === 'verified') return current;
    const number = current.number;
    const state = await viaProvider(() => sms.numberStatus(number));
    const error = state.status === 'failed' ? state.reason : null;
    await deps.numbers.setPhoneNumber(
      db,
      userId,
      { plivoNumberStatus: state.status, plivoNumberError: error },
      clock.now(),
    );
    return { number, status: state.status, error };
  }

  return { getPhoneNumber, requestPhoneNumber, verifyPhoneNumber };
}
