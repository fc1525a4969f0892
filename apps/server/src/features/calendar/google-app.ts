import type { CalendarDeps } from './calendar.service.ts';
import type { GoogleApp, GoogleTokens } from './google-calendar.ts';
import { sealSecret } from './secret-box.ts';

/** Google's app as this server is configured for it, with the callback on PUBLIC_URL. */
export const googleAppOf = (deps: Pick<CalendarDeps, 'google' | 'publicUrl'>): GoogleApp | undefined =>
  deps.google && {
    ...deps.google,
    redirectUri: `${deps.publicUrl}/api/v1/calendar/oauth/google/callback`,
  };

export const sealTokens = (tokens: GoogleTokens, key: Uint8Array) => sealSecret(JSON.stringify(tokens), key);
export const openTokens = (json: string): GoogleTokens => {
  const parsed = JSON.parse(json) as {
    accessToken: string;
    refreshToken: string | null;
    expiresAt: string | null;
  };
  return { ...parsed, expiresAt: parsed.expiresAt ? new Date(parsed.expiresAt) : null };
};
