import { SOCIAL_USER_DATA_KEY, type SocialUserData } from '@waitlist/contract';

/**
 * SPEC §3 "Social profile data", held in sessionStorage under `socialUserData` between the provider
 * and the onboarding steps. Shared (lib/) because sign-in writes it and onboarding clears it.
 * Writing and clearing need no zod, so the first screen (login, with its social buttons) does not load it;
 * reading back, which checks the stored shape with the contract's schema, is `readSocialUserData`
 * (lib/social-user-data-read.ts), used by the onboarding page only.
 */
export const socialUserDataStorage = {
  write(data: SocialUserData) {
    const { firstName, lastName, email, provider, providerId, idToken, accessToken, nonce } = data;
    const stored: SocialUserData = {
      firstName,
      lastName,
      email,
      provider,
      providerId,
      idToken,
      accessToken,
      nonce,
    };
    sessionStorage.setItem(SOCIAL_USER_DATA_KEY, JSON.stringify(stored));
  },
  clear() {
    sessionStorage.removeItem(SOCIAL_USER_DATA_KEY);
  },
};
