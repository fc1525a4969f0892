import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { SocialConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { IdentityProofMissing, IdentityRejected } from './errors.ts';
import type { IdentityProof, IdentityVerifier } from './index.ts';
import { claimIsTrue, createIdTokenVerifier, stringClaim } from './jwt.ts';

type AppleConfig = NonNullable<SocialConfig['apple']>;

export const APPLE_ISSUER = 'https://appleid.apple.com';

const sha256Hex = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The nonce ties the identity token to the page that asked for it, so a token seen elsewhere cannot be
 * replayed. The page sends us the raw nonce; it may have given Apple the raw value or its SHA-256 in hex
 * (the common Firebase-style recipe), so the token's claim may be either.
 */
function checkNonce(claims: JWTPayload, rawNonce: string | undefined) {
  const tokenNonce = stringClaim(claims, 'nonce');
  // Apple: when the platform supports nonces (nonce_supported true, or absent), a missing one is a failure.
  const nonceSupported = claims.nonce_supported === undefined || claimIsTrue(claims.nonce_supported);
  if (rawNonce) {
    if (!tokenNonce) {
      if (nonceSupported) throw new IdentityRejected('the token carries no nonce');
      return;
    }
    if (tokenNonce !== rawNonce && tokenNonce !== sha256Hex(rawNonce))
      throw new IdentityRejected('the token nonce does not match this sign-in');
    return;
  }
  if (tokenNonce || claimIsTrue(claims.nonce_supported))
    throw new IdentityRejected('the sign-in nonce is missing');
}

/**
 * Apple: the identity token from Sign in with Apple, verified against Apple's keys (issuer
 * https://appleid.apple.com, audience = our Services ID, expiry) and the nonce. Apple puts no name in the
 * token and sends it to the page only on the first sign-in, so names come from the client.
 */
export function createAppleIdentityVerifier(config: AppleConfig, deps: { clock: Clock }): IdentityVerifier {
  const verifyIdToken = createIdTokenVerifier({
    jwksUrl: config.jwksUrl,
    issuer: APPLE_ISSUER,
    audience: config.clientId,
    issuerName: 'Apple',
    clock: deps.clock,
  });

  return {
    provider: 'apple',
    async verify(proof: IdentityProof) {
      if (!proof.idToken) throw new IdentityProofMissing();
      const claims = await verifyIdToken(proof.idToken);
      checkNonce(claims, proof.nonce);
      const email = stringClaim(claims, 'email').toLowerCase();
      return {
        provider: 'apple',
        subject: claims.sub!,
        email: email || null,
        emailVerified: claimIsTrue(claims.email_verified),
        firstName: '',
        lastName: '',
      };
    },
  };
}
