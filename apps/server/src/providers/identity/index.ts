import type { SocialProviderId } from '@waitlist/contract';
import type { SocialConfig } from '../../config.ts';
import type { Clock } from '../../lib/clock.ts';
import { createAppleIdentityVerifier } from './apple.ts';
import { createFacebookIdentityVerifier } from './facebook.ts';
import { createGoogleIdentityVerifier } from './google.ts';

export { IdentityProofMissing, IdentityRejected, IdentityUnavailable } from './errors.ts';

/**
 * Identity providers (issue 7): each one checks the proof a browser brought back from Google, Facebook or
 * Apple, with the provider's keys or API, and says who it really is. The rules (sign in, link, create) live
 * in features/auth; nothing here touches the database.
 */

/** What the browser got from the provider. Which field a provider needs is its own business. */
export interface IdentityProof {
  /** Google ID token (Identity Services credential) or Apple identity token: a JWT. */
  idToken?: string | undefined;
  /** Google OAuth access token (token flow) or Facebook user access token. */
  accessToken?: string | undefined;
  /** Apple: the raw nonce the page generated for this sign-in. */
  nonce?: string | undefined;
}

/** Who the provider says signed in; only what the provider itself vouched for. */
export interface VerifiedIdentity {
  provider: SocialProviderId;
  /** The provider's stable user id (`sub`, Facebook's app-scoped id). */
  subject: string;
  /** Lower-cased; null when the provider did not share one. */
  email: string | null;
  /** Whether the provider has verified that the person controls `email`. */
  emailVerified: boolean;
  /** Empty when the provider did not say (Apple never does in its token). */
  firstName: string;
  lastName: string;
}

export interface IdentityVerifier {
  readonly provider: SocialProviderId;
  /**
   * Checks the proof and returns the identity. Throws IdentityProofMissing when the proof this provider
   * needs is absent, IdentityRejected when it is not genuine, valid and ours, IdentityUnavailable when the
   * provider could not be asked.
   */
  verify(proof: IdentityProof): Promise<VerifiedIdentity>;
}

/** The configured providers; an unconfigured one is absent. */
export type IdentityProviders = Partial<Record<SocialProviderId, IdentityVerifier>>;

export function createIdentityProviders(config: SocialConfig, deps: { clock: Clock }): IdentityProviders {
  const providers: IdentityProviders = {};
  if (config.google) providers.google = createGoogleIdentityVerifier(config.google, deps);
  if (config.facebook) providers.facebook = createFacebookIdentityVerifier(config.facebook);
  if (config.apple) providers.apple = createAppleIdentityVerifier(config.apple, deps);
  return providers;
}
