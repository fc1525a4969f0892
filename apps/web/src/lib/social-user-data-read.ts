import { SOCIAL_USER_DATA_KEY, type SocialUserData, socialUserDataSchema } from '@waitlist/contract';

/** The social profile kept by `socialUserDataStorage.write`, or null when missing or not of its shape. */
export function readSocialUserData(): SocialUserData | null {
  const stored = sessionStorage.getItem(SOCIAL_USER_DATA_KEY);
  if (!stored) return null;
  try {
    const parsed = socialUserDataSchema.safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
