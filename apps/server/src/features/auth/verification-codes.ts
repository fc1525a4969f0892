import {
  authMessages,
  VERIFICATION_CODE_MAX_ATTEMPTS,
  VERIFICATION_CODE_TTL_MINUTES,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import { Conflict } from '../../lib/errors.ts';
import { generateVerificationCode, hashToken, sameHash } from '../../lib/secrets.ts';
import { enqueueEmail } from '../../outbox/index.ts';
import { emailChangeCodeEmail, verificationCodeEmail } from './auth.emails.ts';
import * as repo from './auth.repo.ts';
import type { AuthContext } from './auth-context.ts';

/** The emailed codes that prove an address: who gets one, its budget, sending it, and using it up. */

const MINUTE_MS = 60_000;

/**
 * Where a code for this row goes: the pending new address of a verified account (its own address is
 * untouched until the code comes back), else the account's address.
 */
export const codeRecipient = (user: repo.UserRow) =>
  user.verified && user.pendingEmail ? user.pendingEmail : user.email;

/**
 * Spends one code email to `recipient` from its per-address budget (issue 24: no mail bombing of an
 * address through several accounts), before any transaction: the limiter has its own connection.
 */
export async function chargeCodeEmail({ limiter }: Pick<AuthContext, 'limiter'>, recipient: string) {
  await limiter.take([
    ['codeEmailRecipient', recipient],
    ['codeEmailRecipientDaily', recipient],
  ]);
}

/**
 * Emails a new code for `user`, a row locked in `executor`'s transaction, and binds it to the address it
 * goes to. `charged` is the address whose budget was spent for it: when the row now names another (it
 * changed while the request was on its way), nothing is sent.
 */
export async function issueVerificationCode(
  { clock }: Pick<AuthContext, 'clock'>,
  executor: Executor,
  user: repo.UserRow,
  charged: string,
) {
  const recipient = codeRecipient(user);
  if (recipient !== charged) throw new Conflict(authMessages.emailChangedMeanwhile);
  const code = generateVerificationCode();
  const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_TTL_MINUTES * MINUTE_MS);
  await repo.upsertVerification(executor, user.id, recipient, hashToken(code), expiresAt);
  const message =
    recipient === user.email
      ? verificationCodeEmail(recipient, user.firstName, code)
      : emailChangeCodeEmail(recipient, user.firstName, code);
  await enqueueEmail(executor, message, clock.now());
}

/**
 * Checks `code` against the user's live code inside `tx`: undefined when it matches and was sent to
 * `address` (the code is then used up), else the message to answer with. A wrong guess is recorded, so it
 * counts even though the request fails once the transaction commits.
 */
export async function useCode(
  { clock }: Pick<AuthContext, 'clock'>,
  tx: Executor,
  userId: string,
  code: string,
  address: string,
): Promise<string | undefined> {
  const pending = await repo.findVerificationForUpdate(tx, userId);
  if (!pending || pending.expiresAt <= clock.now()) return authMessages.codeExpired;
  if (pending.failedAttempts >= VERIFICATION_CODE_MAX_ATTEMPTS) return authMessages.codeBurned;
  // A code proves only the address it was emailed to (issue 24): the row's address may have changed since.
  if (pending.email !== address) return authMessages.codeForOtherAddress;
  if (!sameHash(pending.codeHash, hashToken(code))) {
    await repo.recordFailedVerification(tx, userId);
    const left = VERIFICATION_CODE_MAX_ATTEMPTS - pending.failedAttempts - 1;
    return left > 0
      ? `${authMessages.codeInvalid}. ${left} attempt${left === 1 ? '' : 's'} left.`
      : authMessages.codeBurned;
  }
  await repo.deleteVerification(tx, userId);
  return undefined;
}
