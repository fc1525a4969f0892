import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import type { Clock } from '../../lib/clock.ts';
import { IdentityRejected, IdentityUnavailable } from './errors.ts';

/** Provider clocks and ours drift a little; a minute either way is what Google's own libraries allow. */
const CLOCK_TOLERANCE_SECONDS = 60;
const JWKS_TIMEOUT_MS = 5_000;

export interface IdTokenCheck {
  /** The provider's JSON Web Key Set, fetched on first use and cached (jose refetches for an unknown key id). */
  jwksUrl: string;
  issuer: string | string[];
  /** Our client id: a token issued to any other app is refused. */
  audience: string;
  /** Shown in "the token was not issued by …". */
  issuerName: string;
  clock: Clock;
}

/**
 * Verifies a provider's ID token (a JWS signed with RS256): signature against the provider's published
 * keys, issuer, audience, expiry. Every refusal becomes IdentityRejected with a short reason a person can
 * read; a key set that cannot be fetched becomes IdentityUnavailable.
 */
export function createIdTokenVerifier(check: IdTokenCheck): (token: string) => Promise<JWTPayload> {
  const remoteKeys = createRemoteJWKSet(new URL(check.jwksUrl), { timeoutDuration: JWKS_TIMEOUT_MS });
  const keys: JWTVerifyGetKey = async (header, token) => {
    try {
      return await remoteKeys(header, token);
    } catch (error) {
      // A key that is not in the set is the token's fault; failing to get the set is the provider's.
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys ||
        error instanceof errors.JOSENotSupported
      )
        throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new IdentityUnavailable(`${check.issuerName} keys at ${check.jwksUrl}: ${reason}`, {
        cause: error,
      });
    }
  };

  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: check.issuer,
        audience: check.audience,
        // Both providers sign with RS256; naming it also shuts out "none" and HMAC-with-the-public-key tricks.
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: check.clock.now(),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload;
    } catch (error) {
      throw toIdentityError(error, check.issuerName);
    }
  };
}

function toIdentityError(error: unknown, issuerName: string): Error {
  if (error instanceof IdentityRejected || error instanceof IdentityUnavailable) return error;
  if (error instanceof errors.JWTExpired) return new IdentityRejected('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return new IdentityRejected(`the token has no "${error.claim}" claim`);
    switch (error.claim) {
      case 'aud':
        return new IdentityRejected('the token was issued for another app');
      case 'iss':
        return new IdentityRejected(`the token was not issued by ${issuerName}`);
      case 'nbf':
      case 'iat':
        return new IdentityRejected('the token is not valid yet');
      default:
        return new IdentityRejected(`the token's "${error.claim}" claim is invalid`);
    }
  }
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return new IdentityRejected('the token signature is invalid');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
    return new IdentityRejected('the token was signed with an unknown key');
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return new IdentityRejected('the token was signed with an algorithm we do not accept');
  if (error instanceof errors.JOSEError) return new IdentityRejected('the token is malformed');
  return error instanceof Error ? error : new Error(String(error));
}

/** ID tokens carry booleans; some Apple tokens carry them as the strings "true" and "false". */
export function claimIsTrue(value: unknown): boolean {
  return value === true || value === 'true';
}

export function stringClaim(payload: JWTPayload, name: string): string {
  const value = payload[name];
  return typeof value === 'string' ? value.trim() : '';
}
