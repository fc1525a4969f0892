import { type externalAuthBody, normalizePhone, socialMessages } from '@waitlist/contract';
import type { z } from 'zod';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { isUniqueViolation } from '../../lib/db-errors.ts';
import { BadRequest, Conflict, Forbidden, ServiceUnavailable, Unauthorized } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import {
  IdentityProofMissing,
  type IdentityProviders,
  IdentityRejected,
  IdentityUnavailable,
  type VerifiedIdentity,
} from '../../providers/identity/index.ts';
import * as repo from './auth.repo.ts';
import { issueSession, newAccountFields } from './auth.service.ts';

type ExternalAuthRequest = z.output<typeof externalAuthBody>;

export interface SocialAuthServiceDeps {
  db: Database;
  clock: Clock;
  limiter: RateLimiter;
  /** The configured providers (providers/identity); an absent one answers "not configured". */
  identity: IdentityProviders;
  adminEmails: string[];
  logger: Logger;
}

export interface SocialSignIn {
  token: string;
  user: repo.UserRow;
  isNewUser: boolean;
  message: string;
}

export type SocialAuthService = ReturnType<typeof createSocialAuthService>;

const NAME_MAX = 100;

async function verify(deps: SocialAuthServiceDeps, body: ExternalAuthRequest): Promise<VerifiedIdentity> {
  const provider = body.provider;
  const verifier = deps.identity[provider];
  if (!verifier) throw new BadRequest(socialMessages.notConfigured(provider));
  try {
    return await verifier.verify({
      idToken: body.idToken,
      accessToken: body.accessToken,
      nonce: body.nonce,
    });
  } catch (error) {
    if (error instanceof IdentityProofMissing) throw new BadRequest(socialMessages.proofMissing(provider));
    if (error instanceof IdentityRejected)
      throw new Unauthorized(socialMessages.tokenRejected(provider, error.reason));
    if (error instanceof IdentityUnavailable) {
      deps.logger.warn({ err: error, provider }, 'identity provider unavailable');
      throw new ServiceUnavailable(socialMessages.providerUnavailable(provider));
    }
    throw error;
  }
}

/** The client's claims are never used, but one that disagrees with the provider is refused outright. */
function checkClaims(body: ExternalAuthRequest, identity: VerifiedIdentity) {
  const claimedEmail = body.email.trim().toLowerCase();
  const claimedId = body.providerId.trim();
  if (claimedId && claimedId !== identity.subject)
    throw new Unauthorized(socialMessages.mismatch(body.provider));
  if (claimedEmail && identity.email && claimedEmail !== identity.email)
    throw new Unauthorized(socialMessages.mismatch(body.provider));
  if (identity.email && !identity.emailVerified)
    throw new Forbidden(socialMessages.emailNotVerified(body.provider));
}

async function signIn(
  { clock }: Pick<SocialAuthServiceDeps, 'clock'>,
  tx: Executor,
  user: repo.UserRow,
  isNewUser: boolean,
  message: string,
) {
  const { token } = await issueSession(tx, clock, user.id);
  return { token, user, isNewUser, message } satisfies SocialSignIn;
}

/** An existing account with the verified email: link it, sign in to it, or refuse (never a takeover). */
async function useExistingAccount(
  deps: SocialAuthServiceDeps,
  tx: Executor,
  existing: repo.UserRow,
  identity: VerifiedIdentity,
): Promise<SocialSignIn | undefined> {
  const provider = identity.provider;
  // Whoever registered this email never proved they own it; the provider's user does. Neither may
  // silently take the other's account: the owner verifies with the password first.
  if (!existing.verified) throw new Conflict(socialMessages.unverifiedAccountExists(provider));
  if (existing.provider === provider) {
    // Linked to this very identity a moment ago by a concurrent sign-in (read after its lock was released).
    if (existing.providerId === identity.subject)
      return signIn(deps, tx, existing, false, socialMessages.signedIn);
    // Same provider, another identity (e.g. a work address handed to someone new): not the same person.
    throw new Conflict(socialMessages.linkedToAnotherAccount(provider));
  }
  if (existing.provider) {
    // Linked to another provider already: both vouch for the same verified email, so sign in and keep
    // the first link (one provider per account).
    return signIn(deps, tx, existing, false, socialMessages.signedIn);
  }
  // A verified email+password account: link it. isExternalAuth stays as it was, so the owner keeps
  // their password and can still change it.
  const linked = await repo.linkProvider(tx, existing.id, provider, identity.subject, deps.clock.now());
  return linked && signIn(deps, tx, linked, false, socialMessages.linked(provider));
}

async function createAccount(
  deps: SocialAuthServiceDeps,
  tx: Executor,
  body: ExternalAuthRequest,
  identity: VerifiedIdentity & { email: string },
): Promise<SocialSignIn | undefined> {
  const provider = identity.provider;
  let phoneNumber: string | null = null;
  if (body.phoneNumber) {
    phoneNumber = normalizePhone(body.phoneNumber);
    if (!phoneNumber)
      throw new BadRequest(socialMessages.phoneInvalid, { phoneNumber: socialMessages.phoneInvalid });
  } else if (provider === 'apple') {
    throw new BadRequest(socialMessages.phoneRequired, { phoneNumber: socialMessages.phoneRequired });
  }
  // Google and Facebook vouch for the name; Apple tells it only to the page, on the first sign-in.
  const firstName = (identity.firstName || body.firstName).slice(0, NAME_MAX);
  const lastName = (identity.lastName || body.lastName).slice(0, NAME_MAX);
  const created = await repo.insertExternalUser(tx, {
    // The provider verified the email, so a listed one is an admin at once.
    ...newAccountFields(deps.clock.now(), identity.email, deps.adminEmails, true),
    firstName,
    lastName,
    passwordHash: null,
    // The provider verified the email, so there is no code to send.
    verified: true,
    isExternalAuth: true,
    provider,
    providerId: identity.subject,
    phoneNumber,
  });
  return created && signIn(deps, tx, created, true, socialMessages.signedUp);
}

/**
 * Decides, in one transaction, which account this identity signs in to. An insert or link that lost a
 * race with an identical sign-in changes nothing and answers undefined; the next pass reads the winner.
 */
async function resolveAccount(
  deps: SocialAuthServiceDeps,
  tx: Executor,
  body: ExternalAuthRequest,
  identity: VerifiedIdentity,
) {
  for (let pass = 0; pass < 3; pass += 1) {
    const known = await repo.findUserByProvider(tx, identity.provider, identity.subject);
    if (known) return signIn(deps, tx, known, false, socialMessages.signedIn);
    if (!identity.email)
      throw new BadRequest(socialMessages.emailRequired, { email: socialMessages.emailRequired });
    const existing = await repo.findUserByEmailForUpdate(tx, identity.email);
    const outcome = existing
      ? await useExistingAccount(deps, tx, existing, identity)
      : await createAccount(deps, tx, body, { ...identity, email: identity.email });
    if (outcome) return outcome;
  }
  throw new Error('social sign-in: the account kept changing under concurrent sign-ins');
}

/**
 * POST /auth/external (SPEC §7, issue 7): sign in, link or sign up with Google, Facebook or Apple.
 * The provider's proof is verified first; then only the verified subject and email are used, and the
 * fields the client claimed must agree with them. Linking rules: docs/decisions/0006-social-sign-in.md.
 */
export function createSocialAuthService(deps: SocialAuthServiceDeps) {
  const { db, limiter } = deps;
  return {
    async signIn(body: ExternalAuthRequest, ip: string): Promise<SocialSignIn> {
      await limiter.consume('externalAuthIp', ip);
      const identity = await verify(deps, body);
      checkClaims(body, identity);
      try {
        return await db.transaction((tx) => resolveAccount(deps, tx, body, identity));
      } catch (error) {
        // A unique index fired under a concurrent sign-in (the transaction is void): one more go reads it.
        if (!isUniqueViolation(error)) throw error;
        return db.transaction((tx) => resolveAccount(deps, tx, body, identity));
      }
    },
  };
}
