import type { SocialConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { IdentityProofMissing, IdentityRejected } from './errors.ts';
import { asRecord, getJson, text } from './http.ts';
import type { IdentityProof, IdentityVerifier, VerifiedIdentity } from './index.ts';
import { claimIsTrue, createIdTokenVerifier, stringClaim } from './jwt.ts';

type GoogleConfig = NonNullable<SocialConfig['google']>;

/** Google signs ID tokens with either spelling of its issuer. */
export const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Google: an ID token from Google Identity Services, verified against Google's keys (issuer, audience =
 * our client id, expiry); or an OAuth access token from the token flow, which Google's token-info endpoint
 * must say was issued to our client id before its user-info endpoint is asked for the profile.
 */
export function createGoogleIdentityVerifier(config: GoogleConfig, deps: { clock: Clock }): IdentityVerifier {
  const verifyIdToken = createIdTokenVerifier({
    jwksUrl: config.jwksUrl,
    issuer: GOOGLE_ISSUERS,
    audience: config.clientId,
    issuerName: 'Google',
    clock: deps.clock,
  });

  async function fromIdToken(idToken: string): Promise<VerifiedIdentity> {
    const claims = await verifyIdToken(idToken);
    const email = stringClaim(claims, 'email').toLowerCase();
    return {
      provider: 'google',
      subject: claims.sub!,
      email: email || null,
      emailVerified: claimIsTrue(claims.email_verified),
      firstName: stringClaim(claims, 'given_name'),
      lastName: stringClaim(claims, 'family_name'),
    };
  }

  async function fromAccessToken(accessToken: string): Promise<VerifiedIdentity> {
    const info = await getJson(
      `${config.tokenInfoUrl}?access_token=${encodeURIComponent(accessToken)}`,
      'Google token-info',
    );
    // 400 invalid_token: unknown, revoked or expired.
    if (info.status !== 200) throw new IdentityRejected('the token is invalid or has expired');
    const token = asRecord(info.body);
    if (text(token.aud) !== config.clientId && text(token.azp) !== config.clientId)
      throw new IdentityRejected('the token was issued for another app');
    const expiresIn = Number(text(token.expires_in) || Number.NaN);
    if (!Number.isNaN(expiresIn) && expiresIn <= 0) throw new IdentityRejected('the token has expired');

    const profileAnswer = await getJson(config.userInfoUrl, 'Google user-info', {
      authorization: `Bearer ${accessToken}`,
    });
    if (profileAnswer.status !== 200) throw new IdentityRejected('the token is invalid or has expired');
    const profile = asRecord(profileAnswer.body);
    const subject = text(profile.sub);
    if (!subject || (text(token.sub) && text(token.sub) !== subject))
      throw new IdentityRejected('the token does not match the Google profile');
    const email = text(profile.email).toLowerCase();
    return {
      provider: 'google',
      subject,
      email: email || null,
      emailVerified: claimIsTrue(profile.email_verified),
      firstName: text(profile.given_name),
      lastName: text(profile.family_name),
    };
  }

  return {
    provider: 'google',
    async verify(proof: IdentityProof) {
      if (proof.idToken) return fromIdToken(proof.idToken);
      if (proof.accessToken) return fromAccessToken(proof.accessToken);
      throw new IdentityProofMissing();
    },
  };
}
