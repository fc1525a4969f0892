import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { MAX_CALENDAR_CONNECTIONS, calendarMessages as m } from '@waitlist/contract';
import { BadRequest, Conflict } from '../../lib/errors.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarDeps } from './calendar.service.ts';
import { windowOf } from './calendar-sync.ts';
import { googleAppOf, sealTokens } from './google-app.ts';
import { exchangeCode, googleAuthUrl, readGoogle } from './google-calendar.ts';

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

/** Connecting Google Calendar (issue 29): the consent link, and the callback that connects the calendar. */
export function createCalendarOAuth(deps: CalendarDeps) {
  const { db, clock } = deps;
  const google = googleAppOf(deps);

  return {
    /** The consent screen's address for this owner (POST, so it carries the owner's session). */
    async start(userId: string) {
      if (!google) throw new BadRequest(m.notConfigured('Google Calendar'));
      await deps.limiter.consume('calendarConnectAccount', userId);
      const state = signState(await deps.sealKey(), userId, clock.now().getTime() + STATE_MS);
      return googleAuthUrl({ clientId: google.clientId, redirectUri: google.redirectUri, state });
    },

    /**
     * Google's redirect: the code exchanged for tokens, the primary calendar read once (what is there now is
     * the picture later reads compare with), the connection stored with its tokens sealed.
     */
    async callback(code: string, state: string) {
      if (!google) throw new BadRequest(m.notConfigured('Google Calendar'));
      const now = clock.now();
      const key = await deps.sealKey();
      const userId = readState(key, state, now);
      const owner = userId ? await deps.users.findUserById(db, userId) : undefined;
      if (!owner) throw new BadRequest(m.oauthExpired);
      const tokens = await exchangeCode(google, code);
      const read = await readGoogle(
        google,
        tokens,
        null,
        { syncToken: null },
        windowOf(now, 30, owner.timeZone),
        [],
      );
      return db.transaction(async (tx) => {
        await deps.users.lockUser(tx, owner.id);
        const existing = await repo.listConnections(tx, owner.id);
        if (existing.length >= MAX_CALENDAR_CONNECTIONS) throw new BadRequest(m.tooMany);
        if (existing.some((row) => row.kind === 'google' && row.calendarRef === read.calendarRef))
          throw new Conflict(m.alreadyConnected);
        const row = await repo.insertConnection(tx, {
          userId: owner.id,
          kind: 'google',
          name: (read.name || 'Google Calendar').slice(0, 200),
          url: null,
          calendarRef: read.calendarRef,
          account: read.calendarRef,
          secret: sealTokens(read.tokens ?? tokens, key),
          syncToken: read.state.syncToken,
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
