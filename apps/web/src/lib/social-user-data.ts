import { SOCIAL_USER_DATA_KEY, type SocialUserData, socialUserDataSchema } from '@waitlist/contract';

/**
 * SPEC §3 "Social profile data", held in sessionStorage under `socialUserData` between the provider
 * and the onboarding steps. Shared (lib/) because sign-in writes it and onboarding clears it.
 */
export const socialUserDataStorage = {
  read(): SocialUserData | null {
    const stored = sessionStorage.getItem(SOCIAL_USER_DATA_KEY);
    if (!stored) return null;
    try {
      const parsed = socialUserDataSchema.safeParse(JSON.parse(stored));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  },
  write(data: SocialUserData) {
    sessionStorage.setItem(SOCIAL_USER_DATA_KEY, JSON.stringify(socialUserDataSchema.parse(data)));
  },
  clear() {
    sessionStorage.removeItem(SOCIAL_USER_DATA_KEY);
  },
};
