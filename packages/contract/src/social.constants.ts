/**
 * Social sign-in names and keys (issue 7), without zod: the web's first screen (login, with its social
 * buttons) imports these and must not pull the schemas in (issue 16).
 */
export const socialProviders = ['google', 'facebook', 'apple'] as const;
export type SocialProviderId = (typeof socialProviders)[number];
export const socialProviderNames: Record<SocialProviderId, 'Google' | 'Facebook' | 'Apple'> = {
  google: 'Google',
  facebook: 'Facebook',
  apple: 'Apple',
};

/** SPEC §3: held in sessionStorage under this key between the provider and the onboarding steps. */
export const SOCIAL_USER_DATA_KEY = 'socialUserData';
