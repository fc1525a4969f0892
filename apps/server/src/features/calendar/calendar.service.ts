import {
  type CalendarConnectBody,
  type CalendarKind,
  type CalendarSettingsBody,
  type CreateOpeningBody,
  calendarConnectBody,
  MAX_CALENDAR_CONNECTIONS,
  calendarMessages as m,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { NotifyOwner } from '../push/push.service.ts';
import * as repo from './calendar.repo.ts';
import { createCalendarOAuth } from './calendar-oauth.ts';
import { type CalendarPush, createCalendarPush } from './calendar-push.ts';
import { createCalendarSync } from './calendar-sync.ts';
import { revoke } from './google-calendar.ts';
import { googleAppOf, microsoftAppOf, openTokens } from './oauth-apps.ts';
import { openSecret, sealSecret } from './secret-box.ts';

export interface CalendarDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  limiter: Pick<RateLimiter, 'consume'>;
  /** The 32-byte key secrets are sealed with (CALENDAR_ENCRYPTION_KEY, or derived from a stored secret). */
  sealKey: () => Promise<Uint8Array>;
  /** Every request to a calendar the owner named (public addresses only: calendar-fetch.ts). */
  fetch: typeof globalThis.fetch;
  /** The local calendar (the embedded default): its CalDAV address for a business and how to reach it. */
  local?: { url: (userId: string) => string; fetch: typeof globalThis.fetch };
  /** Google Calendar's OAuth client (CALENDAR_GOOGLE_*), when configured; the callback is on `publicUrl`. */
  google?: {
    clientId: string;
    clientSecret: string;
    endpoints?: { api: string; token: string; revoke: string };
  };
  /** Microsoft's app registration (MICROSOFT_CALENDAR_*), when configured. */
  microsoft?: { clientId: string; clientSecret: string; authority?: string; graph?: string };
  publicUrl: string;
  /** Where Google and Microsoft push changes (CALENDAR_PUSH_URL); undefined: polling only. */
  pushUrl?: string | undefined;
  /** The kinds this server can connect. */
  available: readonly CalendarKind[];
  users: {
    lockUser(executor: Executor, id: string): Promise<UserRow | undefined>;
    findUserById(executor: Executor, id: string): Promise<UserRow | undefined>;
  };
  /** Opens a slot in the caller's transaction (features/openings), as POST /openings does. */
  openSlotIn(tx: Executor, userId: string, input: CreateOpeningBody, now: Date): Promise<string>;
  notifyOwner?: NotifyOwner;
  onOutboxWrite?: () => void;
  /** How often a connection is read (default 45 s: with the worker's 15 s pass, within a minute). */
  syncEveryMs?: number;
}

export type CalendarService = ReturnType<typeof createCalendarService>;

const LEASE_MS = 2 * 60_000;

/**
 * A disconnect at the provider, best effort (the tokens are deleted here either way): the push channel
 * closed, and Google's grant revoked.
 */
async function closeAtProvider(deps: CalendarDeps, push: CalendarPush, row: repo.ConnectionRow) {
  await push.close(row);
  const google = googleAppOf(deps);
  if (row.kind !== 'google' || !google || !row.secret) return;
  const tokens = openTokens(openSecret(row.secret, await deps.sealKey()));
  await revoke(google, tokens.refreshToken ?? tokens.accessToken).catch((error: unknown) =>
    deps.logger.warn({ connectionId: row.id, err: error }, 'google token not revoked'),
  );
}

export function createCalendarService(deps: CalendarDeps) {
  const { db, clock } = deps;
  const { sync, firstRead, sourceOf, syncEveryMs } = createCalendarSync(deps);
  const oauth = createCalendarOAuth(deps);
  const push = createCalendarPush(deps);

  return {
    sync,
    sourceOf,
    /** Google and Microsoft: the consent link (POST, with the session) and the callback that connects. */
    oauthStart: oauth.start,
    microsoftApp: microsoftAppOf(deps),
    /** The provider's redirect connects the calendar; its push channel is opened at once. */
    oauthCallback: async (...args: Parameters<typeof oauth.callback>) =>
      push.openNow(await oauth.callback(...args)),
    /** Google's and Microsoft's pushes, and the worker's channel renewals. */
    push,
    available: deps.available,

    list: (user: UserRow) => repo.listConnections(db, user.id),

    /** Connects a calendar after reading it once; its events now are the picture later reads compare with. */
    async connect(user: UserRow, input: CalendarConnectBody) {
      const body = calendarConnectBody.parse(input);
      if (!deps.available.includes(body.kind)) throw new BadRequest(m.notConfigured(body.kind));
      await deps.limiter.consume('calendarConnectAccount', user.id);
      const read = await firstRead(user.id, body, user.timeZone);
      const now = clock.now();
      const key = await deps.sealKey();
      return db.transaction(async (tx) => {
        // Under the owner's row lock, so a burst of connects cannot pass the limit together.
        await deps.users.lockUser(tx, user.id);
        const existing = await repo.listConnections(tx, user.id);
        if (existing.length >= MAX_CALENDAR_CONNECTIONS) throw new BadRequest(m.tooMany);
        const url =
          body.kind === 'local'
            ? null
            : body.kind === 'ics'
              ? new URL(body.url.replace(/^webcal:/i, 'https:')).origin
              : body.url;
        const account = body.kind === 'caldav' ? body.username : null;
        const same = existing.find(
          (row) =>
            row.kind === body.kind &&
            row.url === url &&
            row.account === account &&
            row.calendarRef === read.calendarRef,
        );
        if (same && body.kind !== 'ics') throw new Conflict(m.alreadyConnected);
        const secret = body.kind === 'caldav' ? body.password : body.kind === 'ics' ? body.url : null;
        const row = await repo.insertConnection(tx, {
          userId: user.id,
          kind: body.kind,
          name: (read.name || (body.kind === 'local' ? 'Local calendar' : url) || 'Calendar').slice(0, 200),
          url,
          calendarRef: read.calendarRef,
          account,
          secret: secret ? sealSecret(secret, key) : null,
          syncToken: read.state.syncToken,
          ctag: read.state.ctag,
          lastSyncedAt: now,
          nextSyncAt: new Date(now.getTime() + syncEveryMs),
          createdAt: now,
          updatedAt: now,
        });
        await repo.replaceEvents(tx, row.id, read.events);
        return row;
      });
    },

    async update(user: UserRow, id: string, body: CalendarSettingsBody) {
      const row = await repo.findConnection(db, user.id, id);
      if (!row) throw new NotFound(m.connectionNotFound);
      const rules = body.rules?.map((rule) => ({ ...rule, contains: rule.contains.trim() }));
      return (await repo.updateConnection(db, id, {
        ...body,
        ...(rules ? { rules } : {}),
        updatedAt: clock.now(),
      }))!;
    },

    /** Disconnects: the row, its sealed secret, what it saw and its proposals are deleted. */
    async disconnect(user: UserRow, id: string) {
      const row = await repo.findConnection(db, user.id, id);
      if (!row) throw new NotFound(m.connectionNotFound);
      await closeAtProvider(deps, push, row);
      if (!(await repo.deleteConnection(db, user.id, id))) throw new NotFound(m.connectionNotFound);
    },

    /** "Check now": the connection read at once (unless another read holds it), then as it stands. */
    async syncNow(user: UserRow, id: string) {
      const now = clock.now();
      const row = await repo.findConnection(db, user.id, id);
      if (!row) throw new NotFound(m.connectionNotFound);
      await deps.limiter.consume('calendarSyncAccount', user.id);
      const [leased] = await repo.leaseConnection(db, id, now, new Date(now.getTime() + LEASE_MS));
      if (leased) await sync(leased);
      return (await repo.findConnection(db, user.id, id))!;
    },

    /** The scheduler's pass: every due connection read by exactly one instance. */
    async syncDue(limit = 20) {
      const now = clock.now();
      const due = await repo.leaseDueConnections(db, now, new Date(now.getTime() + LEASE_MS), limit);
      let proposed = 0;
      for (const row of due) proposed += await sync(row);
      return { synced: due.length, proposed };
    },
  };
}
