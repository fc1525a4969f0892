import {
  type CalendarConnectBody,
  type CalendarKind,
  type CalendarSettingsBody,
  type CreateOpeningBody,
  calendarConnectBody,
  MAX_CALENDAR_CONNECTIONS,
  calendarMessages as m,
  offerMessages,
} from '@waitlist/contract';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import type { Clock } from '../../lib/clock.ts';
import { BadRequest, Conflict, NotFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { RateLimiter } from '../../lib/rate-limit.ts';
import type { NotifyOwner } from '../push/push.service.ts';
import * as repo from './calendar.repo.ts';
import { type CalendarOAuth, createCalendarOAuth } from './calendar-oauth.ts';
import { type CalendarPush, createCalendarPush } from './calendar-push.ts';
import { boundedRead, createCalendarSync } from './calendar-sync.ts';
import { revoke } from './google-calendar.ts';
import type { IcsParser } from './ics-parser.ts';
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
  /** Parses feeds and CalDAV events on worker threads under a time limit (issue 38: ics-parser.ts). */
  parser: IcsParser;
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
  /** The business's own services and staff (features/services): a rule may name only those (issue 38). */
  catalog: {
    listServices(executor: Executor, userId: string): Promise<{ id: string }[]>;
    listStaff(executor: Executor, userId: string): Promise<{ id: string }[]>;
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

/**
 * Google and Microsoft (issue 38): the consent link bound to the browser that asked (POST, with the session),
 * the callback that holds the account it came back with, and the owner's confirm (which connects it and only
 * then opens its push channel) or cancel.
 */
function oauthMethods(deps: CalendarDeps, oauth: CalendarOAuth, push: CalendarPush) {
  return {
    oauthStart: oauth.start,
    oauthCookie: oauth.cookie,
    oauthCallback: oauth.callback,
    oauthPending: oauth.pending,
    async oauthConfirm(user: UserRow, id: string) {
      const row = await push.openNow(await oauth.confirm(user, id));
      return (await repo.findConnection(deps.db, user.id, row.id)) ?? row;
    },
    oauthCancel: oauth.cancel,
  };
}

/**
 * Refuses rules naming a service or staff member that is not the owner's own, on each rule's field (issue 38).
 * Run under the owner's row lock, which deleting a service or staff member also takes: none is deleted between
 * this check and the write. One deleted later is left out when the slot opens (proposals.ts).
 */
async function checkRuleNames(
  deps: CalendarDeps,
  tx: Executor,
  userId: string,
  rules: { serviceId?: string | null; staffId?: string | null }[],
) {
  if (!rules.some((rule) => rule.serviceId || rule.staffId)) return;
  const services = new Set((await deps.catalog.listServices(tx, userId)).map((service) => service.id));
  const staff = new Set((await deps.catalog.listStaff(tx, userId)).map((member) => member.id));
  const errors: Record<string, string> = {};
  rules.forEach((rule, index) => {
    if (rule.serviceId && !services.has(rule.serviceId))
      errors[`rules.${index}.serviceId`] = offerMessages.serviceNotFound;
    if (rule.staffId && !staff.has(rule.staffId))
      errors[`rules.${index}.staffId`] = offerMessages.staffNotFound;
  });
  const first = Object.values(errors)[0];
  if (first) throw new BadRequest(first, errors);
}

/** Connects a calendar after reading it once; its events now are the picture later reads compare with. */
async function connectCalendar(
  deps: CalendarDeps,
  { firstRead, syncEveryMs }: Pick<ReturnType<typeof createCalendarSync>, 'firstRead' | 'syncEveryMs'>,
  user: UserRow,
  input: CalendarConnectBody,
) {
  const { db, clock } = deps;
  const body = calendarConnectBody.parse(input);
  if (!deps.available.includes(body.kind)) throw new BadRequest(m.notConfigured(body.kind));
  await deps.limiter.consume('calendarConnectAccount', user.id);
  const read = await firstRead(user.id, body, user.timeZone);
  const { events, skipped } = boundedRead(read, []);
  const now = clock.now();
  const key = await deps.sealKey();
  const row = await db.transaction(async (tx) => {
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
      skipped,
      lastSyncedAt: now,
      nextSyncAt: new Date(now.getTime() + syncEveryMs),
      createdAt: now,
      updatedAt: now,
    });
    return row;
  });
  // The picture is written in short transactions (replaceEvents), and the read's sync state only after it:
  // a crash between the two leaves a connection whose next read is a whole one, not one from a token that
  // the stored picture does not match.
  await repo.replaceEvents(db, row.id, events, []);
  return (await repo.updateConnection(db, row.id, {
    syncToken: read.state.syncToken,
    ctag: read.state.ctag,
  }))!;
}

export function createCalendarService(deps: CalendarDeps) {
  const { db, clock } = deps;
  const { sync, firstRead, sourceOf, syncEveryMs } = createCalendarSync(deps);
  const oauth = createCalendarOAuth(deps);
  const push = createCalendarPush(deps);

  return {
    sync,
    sourceOf,
    /** Google and Microsoft: the consent, held until the owner confirms it (calendar-oauth.ts, issue 38). */
    ...oauthMethods(deps, oauth, push),
    microsoftApp: microsoftAppOf(deps),
    /** Google's and Microsoft's pushes, and the worker's channel renewals. */
    push,
    available: deps.available,

    list: (user: UserRow) => repo.listConnections(db, user.id),

    connect: (user: UserRow, input: CalendarConnectBody) =>
      connectCalendar(deps, { firstRead, syncEveryMs }, user, input),

    update: (user: UserRow, id: string, body: CalendarSettingsBody) =>
      db.transaction(async (tx) => {
        await deps.users.lockUser(tx, user.id);
        if (!(await repo.findConnection(tx, user.id, id))) throw new NotFound(m.connectionNotFound);
        const rules = body.rules?.map((rule) => ({ ...rule, contains: rule.contains.trim() }));
        if (rules) await checkRuleNames(deps, tx, user.id, rules);
        const values = { ...body, ...(rules ? { rules } : {}), updatedAt: clock.now() };
        return (await repo.updateConnection(tx, id, values))!;
      }),

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
