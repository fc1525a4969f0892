import { z } from 'zod';
import { fieldMessages } from './field-messages.ts';
import { validationMessages } from './messages.ts';
import { type SocialProviderId, socialProviderNames, socialProviders } from './social.constants.ts';
import { userSchema } from './user.schemas.ts';

/**
 * Social sign-in (SPEC §1, §3 "Social profile data", §7 POST /auth/external; issue 7).
 *
 * The SPEC's client sends only what it read from the provider. A server that trusted those fields
 * would let anyone sign in as anyone, so the body also carries the provider's proof, which the server
 * verifies itself: Google an ID token (or an OAuth access token), Facebook a user access token, Apple an
 * identity token plus the raw nonce the page generated. The verified email and subject win over the
 * claimed ones; a mismatch is refused.
 */
/** SPEC §3 social profile data, plus the proof needed to repeat the call from /post-login-onboarding. */
export const socialUserDataSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  provider: z.enum(socialProviders),
  providerId: z.string(),
  idToken: z.string().optional(),
  accessToken: z.string().optional(),
  nonce: z.string().optional(),
});
export type SocialUserData = z.infer<typeof socialUserDataSchema>;

/** The server's answers for social sign-in (ours unless the SPEC gives them). */
export const socialMessages = {
  /** SPEC §5, word for word. */
  emailRequired: validationMessages.socialEmailRequired,
  /** SPEC §8 names "Phone number is required"; the web looks for that phrase. */
  phoneRequired: 'Phone number is required to finish signing up with Apple.',
  phoneInvalid: 'Please enter a valid phone number',
  badProvider: 'provider must be google, facebook or apple',
  notConfigured: (provider: SocialProviderId) =>
    `${socialProviderNames[provider]} sign-in is not configured on this server.`,
  proofMissing: (provider: SocialProviderId) =>
    `${socialProviderNames[provider]} sign-in needs the token ${socialProviderNames[provider]} gave you. Please try again.`,
  tokenRejected: (provider: SocialProviderId, reason: string) =>
    `${socialProviderNames[provider]} sign-in could not be verified: ${reason}.`,
  mismatch: (provider: SocialProviderId) =>
    `The details sent do not match your ${socialProviderNames[provider]} account.`,
  emailNotVerified: (provider: SocialProviderId) =>
    `Your ${socialProviderNames[provider]} email address is not verified. Verify it with ${socialProviderNames[provider]} and try again.`,
  unverifiedAccountExists: (provider: SocialProviderId) =>
    `An account with this email already exists but its email is not verified. Log in with your password and verify your email, then continue with ${socialProviderNames[provider]}.`,
  /** An account with this email is already linked to another identity at the same provider. */
  linkedToAnotherAccount: (provider: SocialProviderId) =>
    `An account with this email is already linked to a different ${socialProviderNames[provider]} account.`,
  signedIn: 'Login successful',
  signedUp: 'Account created successfully',
  linked: (provider: SocialProviderId) => `Your account is now linked to ${socialProviderNames[provider]}.`,
  providerUnavailable: (provider: SocialProviderId) =>
    `We could not reach ${socialProviderNames[provider]} to check your sign-in. Please try again in a moment.`,
} as const;

const token = z.string().min(1, fieldMessages.required).max(8192, fieldMessages.tooLong(8192));
const upTo = (max: number) => z.string().trim().max(max, fieldMessages.tooLong(max));

export const externalAuthBody = z.object({
  // SPEC §7 fields (what the client read from the provider; never trusted on their own).
  firstName: upTo(100).default(''),
  lastName: upTo(100).default(''),
  email: upTo(254).default(''),
  provider: z.enum(socialProviders, { error: socialMessages.badProvider }),
  providerId: upTo(255).default(''),
  // Proof (ours): Google `idToken` (Identity Services credential) or `accessToken` (token flow);
  // Facebook `accessToken`; Apple `idToken` and the raw `nonce` the page passed to Apple.
  idToken: token.optional(),
  accessToken: token.optional(),
  nonce: z.string().max(255, fieldMessages.tooLong(255)).optional(),
  /** Apple only, new accounts: the owner's phone, asked for on /post-login-onboarding. */
  phoneNumber: upTo(32).optional(),
});
export type ExternalAuthBody = z.input<typeof externalAuthBody>;

export const externalAuthResponse = z.object({
  success: z.literal(true),
  token: z.string(),
  user: userSchema,
  message: z.string(),
  /** True when this call created the account: the web sends the owner to onboarding. */
  isNewUser: z.boolean(),
});
export type ExternalAuthResponse = z.infer<typeof externalAuthResponse>;
