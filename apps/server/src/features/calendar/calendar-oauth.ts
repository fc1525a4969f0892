import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type CalendarPendingConnection,
  MAX_CALENDAR_CONNECTIONS,
  calendarMessages as m,
} from '@waitlist/contract';
import type { Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts';
import { useNonce } from '../../nonces/index.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarDeps } from './calendar.service.ts';
import { boundedRead, windowOf } from './calendar-sync.ts';
import { exchangeCode, type GoogleTokens, googleAuthUrl, readGoogle, revoke } from './google-calendar.ts';
import {
  exchangeMicrosoftCode,
  graphSession,
  type MicrosoftTokens,
  microsoftAuthUrl,
} from './microsoft-auth.ts';
import { readMicrosoft } from './microsoft-calendar.ts';
import {
  callbackUrl,
  googleAppOf,
  microsoftAppOf,
  type OAuthKind,
  openTokens,
  sealTokens,
} from './oauth-apps.ts';
import { openSecret } from './secret-box.ts';

/** How long the owner has to answer the consent screen, and then to confirm the account it came back with. */
const STATE_MS = 10 * 60_000;
export const PENDING_MS = 10 * 60_000;
/** A pending row's lease and next read: never (its status keeps it out of every pass as well). */
const NEVER = new Date('9999-01-01T00:00:00Z');
/** The once-only store's scope for used states. */
const STATE_SCOPE = 'calendar-oauth-state';
/** The browser's half of the state (issue 38): a random value in an HttpOnly cookie sent only to the callback. */
export const OAUTH_COOKIE = 'calendar_oauth';

/**
 * The OAuth `state`: who asked, until when, a once-only nonce and a digest of the browser's cookie, signed
 * (HMAC-SHA256 under a key of its own derived from the sealing key). The callback knows the owner without a
 * session, a forged or stale state fails, and a consent link finished in another browser (one without the
 * cookie: a link sent to someone else) connects nothing.
 */
function stateKey(sealKey: Uint8Array) {
  return createHmac('sha256', sealKey).update('calendar oauth state').digest();
}
const browserDigest = (sealKey: Uint8Array, browserKey: string) =>
  createHmac('sha256', stateKey(sealKey)).update(`browser.${browserKey}`).digest('base64url');
const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function signState(
  sealKey: Uint8Array,
  subject: string,
  expiresAt: number,
  browserKey: string,
): string {
  const nonce = randomBytes(16).toString('base64url');
  const body = `${subject}.${expiresAt}.${nonce}.${browserDigest(sealKey, browserKey)}`;
  const mac = createHmac('sha256', stateKey(sealKey)).update(body).digest('base64url');
  return `${body}.${mac}`;
}

export interface SignedState {
  subject: string;
  expiresAt: number;
  nonce: string;
  browser: string;
}
export function readState(sealKey: Uint8Array, state: string, now: Date): SignedState | null {
  const parts = state.split('.');
  if (parts.length !== 5) return null;
  const [subject, expiresAt, nonce, browser, mac] = parts as [string, string, string, string, string];
  const expected = createHmac('sha256', stateKey(sealKey))
    .update(`${subject}.${expiresAt}.${nonce}.${browser}`)
    .digest('base64url');
  if (!sameText(mac, expected)) return null;
  return Number(expiresAt) > now.getTime() ? { subject, expiresAt: Number(expiresAt), nonce, browser } : null;
}

/** The binding cookie's value out of a Cookie header (any other cookie, or a malformed one, is ignored). */
export function browserKeyOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const at = part.indexOf('=');
    if (part.slice(0, at).trim() !== OAUTH_COOKIE) continue;
    const value = part.slice(at + 1).trim();
    if (/^[\w-]{20,100}$/.test(value)) return value;
  }
  return undefined;
}

export const pendingDto = (row: repo.ConnectionRow): CalendarPendingConnection => ({
  id: row.id,
  kind: row.kind as CalendarPendingConnection['kind'],
  account: row.account,
  name: row.name,
  expiresAt: new Date(row.createdAt.getTime() + PENDING_MS).toISOString(),
});

type Tokens = GoogleTokens | MicrosoftTokens;
type Providers = ReturnType<typeof providersOf>;
export type CalendarOAuth = ReturnType<typeof createCalendarOAuth>;

/** Google's and Microsoft's apps as configured: exchanging a code, reading a calendar, who signed in. */
function providersOf(deps: CalendarDeps) {
  const google = googleAppOf(deps);
  const microsoft = microsoftAppOf(deps);
  const label = { google: 'Google Calendar', microsoft: 'Outlook / Microsoft 365' } as const;
  const appOf = (kind: OAuthKind) => {
    const app = kind === 'google' ? google : microsoft;
    if (!app) throw new BadRequest(m.notConfigured(label[kind]));
    return app;
  };
  return {
    google,
    microsoft,
    label,
    appOf,

    exchange: (kind: OAuthKind, code: string): Promise<Tokens> =>
      kind === 'google' && google
        ? exchangeCode(google, code)
        : microsoft
          ? exchangeMicrosoftCode(microsoft, code)
          : Promise.reject(new BadRequest(m.notConfigured(label[kind]))),

    /** The calendar read with `tokens` (the default one when `calendarRef` is null), by the provider's module. */
    async readWith(
      kind: OAuthKind,
      tokens: Tokens,
      calendarRef: string | null,
      window: ReturnType<typeof windowOf>,
    ) {
      if (kind === 'google' && google) {
        const read = await readGoogle(google, tokens, calendarRef, { syncToken: null }, window, []);
        return { ...read, tokens: read.tokens ?? tokens };
      }
      if (kind === 'microsoft' && microsoft) {
        const state = { syncToken: null, ctag: null };
        const read = await readMicrosoft(microsoft, tokens, calendarRef, state, window, []);
        return { ...read, tokens: read.tokens ?? tokens };
      }
      throw new BadRequest(m.notConfigured(label[kind]));
    },

    /** Who signed in: Google's primary calendar is named by its account's email; Microsoft says it at /me. */
    async accountOf(kind: OAuthKind, tokens: Tokens, calendarRef: string | null) {
      if (kind === 'google' || !microsoft) return calendarRef;
      try {
        const { body } = await graphSession(microsoft, tokens).call('GET', '/v1.0/me');
        const address = body.mail ?? body.userPrincipalName;
        return typeof address === 'string' && address ? address.slice(0, 320) : null;
      } catch {
        return null;
      }
    },

    /** The Set-Cookie value binding a consent to this browser, or clearing it (`value` null). */
    cookie(kind: OAuthKind, value: string | null) {
      // Where the provider sends the browser back (configured or not: clearing the cookie never fails).
      const redirect = new URL(callbackUrl(deps.publicUrl, kind));
      return [
        `${OAUTH_COOKIE}=${value ?? ''}`,
        // Sent back only to the provider's redirect, on the top-level navigation that brings it (Lax).
        `Path=${redirect.pathname}`,
        `Max-Age=${value ? STATE_MS / 1000 : 0}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(redirect.protocol === 'https:' ? ['Secure'] : []),
      ].join('; ');
    },
  };
}

/** The consent link bound to the browser that asked, and the provider's redirect that holds what it gave. */
function consentOf(deps: CalendarDeps, providers: Providers) {
  const { db, clock } = deps;
  const { appOf, label } = providers;
  return {
    /**
     * The consent screen's address for this owner (POST, so it carries the owner's session), and the cookie
     * that binds it to this browser. Pending consents nobody answered in time are forgotten here.
     */
    async start(userId: string, kind: OAuthKind) {
      const app = appOf(kind);
      await deps.limiter.consume('calendarConnectAccount', userId);
      const now = clock.now();
      await repo.deletePendingConnections(db, { before: new Date(now.getTime() - PENDING_MS) });
      const browserKey = randomBytes(32).toString('base64url');
      const state = signState(
        await deps.sealKey(),
        `${kind}:${userId}`,
        now.getTime() + STATE_MS,
        browserKey,
      );
      const link = { clientId: app.clientId, redirectUri: app.redirectUri, state };
      const authority = providers.microsoft?.authority;
      const url =
        kind === 'google'
          ? googleAuthUrl(link)
          : microsoftAuthUrl({ ...link, ...(authority ? { authority } : {}) });
      return { url, cookie: providers.cookie(kind, browserKey) };
    },

    /**
     * The provider's redirect, in the browser that started it (its cookie), once per state: the code exchanged
     * for tokens and the calendar read to learn whose it is. Nothing is connected yet: the account waits,
     * sealed, as a pending row the owner confirms or cancels (one per owner: a newer consent replaces it).
     */
    async callback(kind: OAuthKind, code: string, state: string, browserKey: string | undefined) {
      const now = clock.now();
      const key = await deps.sealKey();
      const signed = readState(key, state, now);
      const userId = signed?.subject.startsWith(`${kind}:`) ? signed.subject.slice(kind.length + 1) : null;
      if (!signed || !userId) throw new BadRequest(m.oauthExpired);
      if (!browserKey || !sameText(browserDigest(key, browserKey), signed.browser))
        throw new BadRequest(m.oauthOtherBrowser);
      const owner = await deps.users.findUserById(db, userId);
      if (!owner) throw new BadRequest(m.oauthExpired);
      if (!(await useNonce(db, STATE_SCOPE, signed.nonce, new Date(signed.expiresAt), now)))
        throw new BadRequest(m.oauthExpired);
      const tokens = await providers.exchange(kind, code);
      const read = await providers.readWith(kind, tokens, null, windowOf(now, 30, owner.timeZone));
      const account = await providers.accountOf(kind, read.tokens, read.calendarRef);
      return db.transaction(async (tx) => {
        await deps.users.lockUser(tx, owner.id);
        await repo.deletePendingConnections(tx, { userId: owner.id });
        await refuseOverLimit(tx, owner.id, kind, read.calendarRef);
        return repo.insertConnection(tx, {
          userId: owner.id,
          kind,
          name: (read.name || label[kind]).slice(0, 200),
          url: null,
          calendarRef: read.calendarRef,
          account,
          secret: sealTokens(read.tokens, key),
          status: repo.PENDING_STATUS,
          leaseUntil: NEVER,
          nextSyncAt: NEVER,
          createdAt: now,
          updatedAt: now,
        });
      });
    },
  };
}

/** The limit, and the same calendar twice, checked under the owner's row lock (pending consents not counted). */
async function refuseOverLimit(tx: Executor, userId: string, kind: OAuthKind, calendarRef: string | null) {
  const existing = await repo.listConnections(tx, userId);
  if (existing.length >= MAX_CALENDAR_CONNECTIONS) throw new BadRequest(m.tooMany);
  if (existing.some((row) => row.kind === kind && row.calendarRef === calendarRef))
    throw new Conflict(m.alreadyConnected);
}

/** The owner's answer to "Connect <account> (<calendar>) to your business?" (another owner's consent: 404). */
function confirmationOf(deps: CalendarDeps, providers: Providers) {
  const { db, clock } = deps;
  async function livePending(user: UserRow, id: string) {
    const row = await repo.findPendingConnection(db, user.id, id);
    if (!row || row.createdAt.getTime() + PENDING_MS <= clock.now().getTime())
      throw new NotFound(m.oauthPendingNotFound);
    return row;
  }
  return {
    pending: async (user: UserRow, id: string) => pendingDto(await livePending(user, id)),

    /**
     * Yes: the calendar read now (what is there is the picture later reads compare with) and the row made
     * live. The caller opens its push channel after.
     */
    async confirm(user: UserRow, id: string) {
      const pending = await livePending(user, id);
      const kind = pending.kind as OAuthKind;
      const key = await deps.sealKey();
      const now = clock.now();
      const tokens = openTokens(openSecret(pending.secret!, key));
      const read = await providers.readWith(
        kind,
        tokens,
        pending.calendarRef,
        windowOf(now, 30, user.timeZone),
      );
      const { events, skipped } = boundedRead(read, []);
      await db.transaction(async (tx) => {
        await deps.users.lockUser(tx, user.id);
        if (!(await repo.findPendingConnection(tx, user.id, id, true)))
          throw new NotFound(m.oauthPendingNotFound);
        await refuseOverLimit(tx, user.id, kind, read.calendarRef);
        await repo.updateConnection(tx, id, {
          status: 'ok',
          secret: sealTokens(read.tokens, key),
          skipped,
          lastSyncedAt: now,
          leaseUntil: null,
          updatedAt: now,
        });
      });
      // The picture in short transactions, then the sync state (as connect does: calendar.service.ts).
      await repo.replaceEvents(db, id, events, []);
      return (await repo.updateConnection(db, id, {
        syncToken: read.state.syncToken,
        ctag: read.state.ctag,
        nextSyncAt: now,
      }))!;
    },

    /**
     * No: the pending account forgotten, and Google's grant revoked (unless the same Google account is
     * connected here already, whose grant it shares).
     */
    async cancel(user: UserRow, id: string) {
      const [row] = await repo.deletePendingConnections(db, { userId: user.id, id });
      if (!row) throw new NotFound(m.oauthPendingNotFound);
      const { google } = providers;
      if (row.kind !== 'google' || !google || !row.secret) return;
      const live = await repo.listConnections(db, user.id);
      if (live.some((other) => other.kind === 'google' && other.calendarRef === row.calendarRef)) return;
      const tokens = openTokens(openSecret(row.secret, await deps.sealKey()));
      await revoke(google, tokens.refreshToken ?? tokens.accessToken).catch((error: unknown) =>
        deps.logger.warn({ err: error }, 'google token not revoked'),
      );
    },
  };
}

/**
 * Connecting Google or Microsoft (issues 29, 38): the consent link bound to the browser that asked, the
 * callback that holds the account it came back with, and the owner's confirm (or cancel) that connects it.
 */
export function createCalendarOAuth(deps: CalendarDeps) {
  const providers = providersOf(deps);
  return { cookie: providers.cookie, ...consentOf(deps, providers), ...confirmationOf(deps, providers) };
}
