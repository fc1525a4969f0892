import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_CALENDAR_CONNECTIONS, calendarMessages as m } from '@waitlist/contract';
import { BadRequest, Conflict } from '../../lib/errors.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarDeps } from './calendar.service.ts';
import { windowOf } from './calendar-sync.ts';
import { exchangeCode, googleAuthUrl, readGoogle } from './google-calendar.ts';
import { exchangeMicrosoftCode, microsoftAuthUrl } from './microsoft-auth.ts';
import { readMicrosoft } from './microsoft-calendar.ts';
import { googleAppOf, microsoftAppOf, type OAuthKind, sealTokens } from './oauth-apps.ts';

/** How long the owner has to answer Google's consent screen. */
const STATE_MS = 10 * 60_000;

/**
 * The OAuth `state`: who asked and until when, signed (HMAC-SHA256 under a key of its own derived from the
 * sealing key), so the callback knows the owner without a session cookie and a forged or stale one fails.
 */
function stateKey(sealKey: Uint8Array) {
  return createHmac('sha256', sealKey).update('calendar oauth state').digest();
}
export function signState(sealKey: Uint8Array, userId: string, expiresAt: number): string {
  const body = `${userId}.${expiresAt}.${randomBytes(12).toString('base64url')}`;
  const mac = createHmac('sha256', stateKey(sealKey)).update(body).digest('base64url');
  return `${body}.${mac}`;
}
export function readState(sealKey: Uint8Array, state: string, now: Date): string | null {
  const parts = state.split('.');
  if (parts.length !== 4) return null;
  const [userId, expiresAt, nonce, mac] = parts as [string, string, string, string];
  const expected = createHmac('sha256', stateKey(sealKey)).update(`${userId}.${expiresAt}.${nonce}`).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return Number(expiresAt) > now.getTime() ? userId : null;
}

/** Connecting Google or Microsoft (issue 29): the consent link, and the callback that connects the calendar. */
export function createCalendarOAuth(deps: CalendarDeps) {
  const { db, clock } = deps;
  const google = googleAppOf(deps);
  const microsoft = microsoftAppOf(deps);
  const label = { google: 'Google Calendar', microsoft: 'Outlook / Microsoft 365' } as const;

  /** The code exchanged for tokens and the default calendar read once, by the provider's own module. */
  async function firstRead(kind: OAuthKind, code: string, window: ReturnType<typeof windowOf>) {
    if (kind === 'google' && google) {
      const tokens = await exchangeCode(google, code);
      const read = await readGoogle(google, tokens, null, { syncToken: null }, window, []);
      return { ...read, tokens: read.tokens ?? tokens };
    }
    if (kind === 'microsoft' && microsoft) {
      const tokens = await exchangeMicrosoftCode(microsoft, code);
      const read = await readMicrosoft(microsoft, tokens, null, { syncToken: null, ctag: null }, window, []);
      return { ...read, tokens: read.tokens ?? tokens };
    }
    throw new BadRequest(m.notConfigured(label[kind]));
  }

  return {
    /** The consent screen's address for this owner (POST, so it carries the owner's session). */
    async start(userId: string, kind: OAuthKind) {
      const app = kind === 'google' ? google : microsoft;
      if (!app) throw new BadRequest(m.notConfigured(label[kind]));
      await deps.limiter.consume('calendarConnectAccount', userId);
      const state = signState(await deps.sealKey(), `${kind}:${userId}`, clock.now().getTime() + STATE_MS);
      const link = { clientId: app.clientId, redirectUri: app.redirectUri, state };
      return kind === 'google'
        ? googleAuthUrl(link)
        : microsoftAuthUrl({ ...link, ...(microsoft?.authority ? { authority: microsoft.authority } : {}) });
    },

    /**
     * The provider's redirect: the code exchanged for tokens, the default calendar read once (what is there
     * now is the picture later reads compare with), the connection stored with its tokens sealed.
     */
    async callback(kind: OAuthKind, code: string, state: string) {
      const now = clock.now();
      const key = await deps.sealKey();
      const signed = readState(key, state, now);
      const userId = signed?.startsWith(`${kind}:`) ? signed.slice(kind.length + 1) : null;
      const owner = userId ? await deps.users.findUserById(db, userId) : undefined;
      if (!owner) throw new BadRequest(m.oauthExpired);
      const read = await firstRead(kind, code, windowOf(now, 30, owner.timeZone));
      return db.transaction(async (tx) => {
        await deps.users.lockUser(tx, owner.id);
        const existing = await repo.listConnections(tx, owner.id);
        if (existing.length >= MAX_CALENDAR_CONNECTIONS) throw new BadRequest(m.tooMany);
        if (existing.some((row) => row.kind === kind && row.calendarRef === read.calendarRef))
          throw new Conflict(m.alreadyConnected);
        const row = await repo.insertConnection(tx, {
          userId: owner.id,
          kind,
          name: (read.name || label[kind]).slice(0, 200),
          url: null,
          calendarRef: read.calendarRef,
          account: read.calendarRef,
          secret: sealTokens(read.tokens, key),
          syncToken: read.state.syncToken,
          ctag: read.state.ctag,
          lastSyncedAt: now,
          nextSyncAt: now,
          createdAt: now,
          updatedAt: now,
        });
        await repo.replaceEvents(tx, row.id, read.events);
        return row;
      });
    },
  };
}
