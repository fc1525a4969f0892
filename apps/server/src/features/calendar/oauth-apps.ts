import type { CalendarDeps } from './calendar.service.ts';
import type { GoogleApp } from './google-calendar.ts';
import type { MicrosoftApp } from './microsoft-auth.ts';
import { sealSecret } from './secret-box.ts';

/** The calendars connected by OAuth (issue 29): each provider's app as configured, its callback on PUBLIC_URL. */
export const OAUTH_KINDS = ['google', 'microsoft'] as const;
export type OAuthKind = (typeof OAUTH_KINDS)[number];
export const callbackUrl = (publicUrl: string, kind: OAuthKind) =>
  `${publicUrl}/api/v1/calendar/oauth/${kind}/callback`;

export const googleAppOf = (deps: Pick<CalendarDeps, 'google' | 'publicUrl'>): GoogleApp | undefined =>
  deps.google && { ...deps.google, redirectUri: callbackUrl(deps.publicUrl, 'google') };

export const microsoftAppOf = (
  deps: Pick<CalendarDeps, 'microsoft' | 'publicUrl' | 'fetch' | 'clock'>,
): MicrosoftApp | undefined =>
  deps.microsoft && {
    ...deps.microsoft,
    redirectUri: callbackUrl(deps.publicUrl, 'microsoft'),
    // Graph and Microsoft's sign-in are fixed, public addresses; the guarded fetch serves them as any other.
    fetch: deps.fetch,
    now: () => deps.clock.now(),
  };

/** OAuth tokens (Google's or Microsoft's: the same three fields) as sealed in the connection's secret. */
interface Tokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}
export const sealTokens = (tokens: Tokens, key: Uint8Array) => sealSecret(JSON.stringify(tokens), key);
export const openTokens = (json: string): Tokens => {
  const parsed = JSON.parse(json) as {
    accessToken: string;
    refreshToken: string | null;
    expiresAt: string | null;
  };
  return { ...parsed, expiresAt: parsed.expiresAt ? new Date(parsed.expiresAt) : null };
};
