import type { ConnectionRow } from './calendar.repo.ts';
import * as repo from './calendar.repo.ts';
import type { CalendarDeps } from './calendar.service.ts';
import { stopGoogleChannel, verifyGooglePush, watchGoogle } from './google-calendar.ts';
import {
  deleteMicrosoftSubscription,
  renewMicrosoftSubscription,
  subscribeMicrosoft,
  verifyMicrosoftNotification,
} from './microsoft-calendar.ts';
import { googleAppOf, microsoftAppOf, type OAuthKind, openTokens, sealTokens } from './oauth-apps.ts';
import { openSecret, sealSecret } from './secret-box.ts';

/** A channel is renewed when less than this is left (Google's last about a week, Graph's about 70 hours). */
export const RENEW_BEFORE_MS = 12 * 3_600_000;
/** A channel that could not be opened is tried again this much later (polling reads the calendar meanwhile). */
const RETRY_MS = 15 * 60_000;
const LEASE_MS = 2 * 60_000;

export const pushAddress = (pushUrl: string, kind: OAuthKind) => `${pushUrl}/api/v1/calendar/push/${kind}`;

type Headers = Record<string, string | string[] | undefined>;
const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

async function tokensOf(deps: CalendarDeps, row: ConnectionRow) {
  const key = await deps.sealKey();
  return { key, tokens: openTokens(openSecret(row.secret!, key)) };
}

/** A new channel (Google: the old one stopped once the new one is open) or a Graph subscription extended. */
async function openChannel(deps: CalendarDeps, row: ConnectionRow, address: string) {
  const google = googleAppOf(deps);
  const microsoft = microsoftAppOf(deps);
  const { key, tokens } = await tokensOf(deps, row);
  const now = deps.clock.now();
  if (row.kind === 'google') {
    const opened = await watchGoogle(google!, tokens, {
      calendarId: row.calendarRef ?? 'primary',
      address,
    });
    const fresh = opened.tokens ?? tokens;
    if (row.channelId && row.channelResourceId)
      await stopGoogleChannel(google!, fresh, {
        id: row.channelId,
        resourceId: row.channelResourceId,
      }).catch((error: unknown) =>
        deps.logger.warn({ connectionId: row.id, err: error }, 'old google channel not stopped'),
      );
    const { channel } = opened;
    return {
      channel: {
        id: channel.id,
        secret: channel.token,
        resourceId: channel.resourceId,
        ends: channel.expiration,
      },
      tokens: opened.tokens,
      key,
    };
  }
  let current = tokens;
  if (row.channelId && row.channelToken) {
    const renewed = await renewMicrosoftSubscription(microsoft!, tokens, row.channelId, now);
    current = renewed.tokens ?? tokens;
    if (renewed.expiresAt) {
      const secret = openSecret(row.channelToken, key);
      return {
        channel: { id: row.channelId, secret, resourceId: null, ends: renewed.expiresAt },
        tokens: renewed.tokens,
        key,
      };
    }
  }
  // Graph no longer has it (expired, removed): a new subscription.
  const made = await subscribeMicrosoft(microsoft!, current, {
    calendarId: row.calendarRef ?? '',
    notificationUrl: address,
    lifecycleNotificationUrl: address,
    now,
  });
  const { subscription } = made;
  return {
    channel: {
      id: subscription.id,
      secret: subscription.clientState,
      resourceId: null,
      ends: subscription.expiresAt,
    },
    tokens: made.tokens ?? (current === tokens ? null : current),
    key,
  };
}

/**
 * Push from Google (events.watch channels) and Microsoft (Graph subscriptions), issue 29. A push only makes
 * the calendar due now: the read itself is the usual one, under its lease, so a push and the 45-second poll
 * never read twice, and a missed push is caught by the poll. Each channel carries a random secret of ours
 * (Google's channel token, Graph's clientState), sealed at rest and compared in constant time; it is
 * renewed before it ends, by one instance (a lease), and closed at the provider on disconnect.
 */
function createChannelRenewals(deps: CalendarDeps) {
  const { db, clock, logger, pushUrl } = deps;
  const google = googleAppOf(deps);
  const microsoft = microsoftAppOf(deps);
  const kinds = [...(google ? ['google'] : []), ...(microsoft ? ['microsoft'] : [])];

  /** Opens or renews one leased connection's channel, then gives the lease back; a failure is tried later. */
  async function renew(row: ConnectionRow) {
    if (!pushUrl || !row.secret || !kinds.includes(row.kind)) return false;
    try {
      const { channel, tokens, key } = await openChannel(
        deps,
        row,
        pushAddress(pushUrl, row.kind as OAuthKind),
      );
      await repo.updateConnection(db, row.id, {
        channelId: channel.id,
        channelToken: sealSecret(channel.secret, key),
        channelResourceId: channel.resourceId,
        channelExpiresAt: channel.ends,
        leaseUntil: null,
        ...(tokens ? { secret: sealTokens(tokens, key) } : {}),
      });
      return true;
    } catch (error) {
      logger.warn({ connectionId: row.id, err: error }, 'calendar push channel not opened');
      const retryAt = new Date(clock.now().getTime() + RENEW_BEFORE_MS + RETRY_MS);
      await repo.updateConnection(db, row.id, { channelExpiresAt: retryAt, leaseUntil: null });
      return false;
    }
  }

  return {
    enabled: Boolean(pushUrl) && kinds.length > 0,

    /** Right after connecting: the channel opened at once when the connection is free (else the next pass). */
    async openNow(row: ConnectionRow) {
      const now = clock.now();
      const [leased] = await repo.leaseConnection(db, row.id, now, new Date(now.getTime() + LEASE_MS));
      if (leased) await renew(leased);
      return row;
    },

    /** The worker's pass: channels missing or ending within 12 hours, each renewed by exactly one instance. */
    async renewDue(limit = 20) {
      if (!pushUrl || kinds.length === 0) return 0;
      const now = clock.now();
      const rows = await repo.leaseChannelsDue(
        db,
        kinds,
        now,
        new Date(now.getTime() + RENEW_BEFORE_MS),
        new Date(now.getTime() + LEASE_MS),
        limit,
      );
      let renewed = 0;
      for (const row of rows) if (await renew(row)) renewed += 1;
      return renewed;
    },

    /** On disconnect: the channel closed at the provider (best effort: the row is deleted either way). */
    async close(row: ConnectionRow) {
      if (!row.channelId || !row.secret || !kinds.includes(row.kind)) return;
      const { tokens } = await tokensOf(deps, row);
      const closing =
        row.kind === 'google'
          ? stopGoogleChannel(google!, tokens, { id: row.channelId, resourceId: row.channelResourceId ?? '' })
          : deleteMicrosoftSubscription(microsoft!, tokens, row.channelId);
      await closing.catch((error: unknown) =>
        logger.warn({ connectionId: row.id, err: error }, 'calendar push channel not closed'),
      );
    },
  };
}

/** Graph batches a few notifications; a push with more is refused before anything is looked up (issue 38). */
export const MAX_PUSH_ITEMS = 100;

/**
 * Whether a verified push may make its channel's calendar due: a throttle per channel (issue 38: a replayed
 * push would otherwise cost a read each time). Past it the push is taken but reads nothing: the poll reads the
 * calendar within a minute anyway.
 */
export type PushAllowance = (channelId: string) => Promise<boolean>;

/**
 * What a push says: the connection its channel names made due now (its next pass reads it), when the push
 * carries that channel's secret.
 */
function createPushReceivers(deps: CalendarDeps) {
  const { db, clock } = deps;
  async function due(row: ConnectionRow, values: Partial<repo.NewConnection> = {}) {
    await repo.updateConnection(db, row.id, { nextSyncAt: clock.now(), ...values });
  }
  /**
   * Already due and no read under way: the next pass reads it anyway, so a push changes nothing. During a read
   * it is not: a push then keeps the calendar due, so what changed after the read is read next pass.
   */
  const alreadyDue = (row: ConnectionRow, now: Date) =>
    row.nextSyncAt.getTime() <= now.getTime() && (!row.leaseUntil || row.leaseUntil < now);
  return {
    /**
     * Google's push: its channel's calendar due now when the channel token is ours, unless it is due already
     * or the channel's pushes are over their throttle (`allow`).
     */
    async receiveGoogle(
      headers: Headers,
      allow: PushAllowance = async () => true,
    ): Promise<'accepted' | 'refused'> {
      const channelId = header(headers, 'x-goog-channel-id');
      if (!channelId || channelId.length > 200) return 'refused';
      const row = await repo.connectionByChannel(db, channelId);
      if (row?.kind !== 'google' || !row.channelToken) return 'refused';
      const token = openSecret(row.channelToken, await deps.sealKey());
      const verdict = verifyGooglePush(headers, { id: channelId, token });
      if (verdict === 'refused') return 'refused';
      if (verdict === 'changed' && !alreadyDue(row, clock.now()) && (await allow(channelId))) await due(row);
      return 'accepted';
    },

    /**
     * Graph's notifications, grouped by subscription: each group must carry its subscription's clientState.
     * A change or `missed` makes the calendar due now; `subscriptionRemoved` also drops the subscription (the
     * next pass subscribes again); `reauthorizationRequired` renews it at the next pass; a change is taken as
     * Google's is (not when already due, and within the channel's throttle). A batch is at most
     * MAX_PUSH_ITEMS notifications, each with a clientState, and its subscriptions are looked up in one
     * statement (issue 38: a refused batch of 1,000 cost 1,000 lookups).
     */
    async receiveMicrosoft(
      body: unknown,
      allow: PushAllowance = async () => true,
    ): Promise<'accepted' | 'refused'> {
      const items = (body as { value?: unknown } | null)?.value;
      if (!Array.isArray(items) || items.length === 0 || items.length > MAX_PUSH_ITEMS) return 'refused';
      const groups = new Map<string, unknown[]>();
      for (const item of items) {
        const { subscriptionId: id, clientState } = (item ?? {}) as Record<string, unknown>;
        if (typeof id !== 'string' || id.length > 200) return 'refused';
        // Every notification of ours carries our secret: one without it is refused before any lookup.
        if (typeof clientState !== 'string' || clientState.length > 200) return 'refused';
        groups.set(id, [...(groups.get(id) ?? []), item]);
      }
      const rows = await repo.connectionsByChannels(db, [...groups.keys()]);
      const key = rows.length > 0 ? await deps.sealKey() : undefined;
      let accepted = 0;
      for (const row of rows) {
        if (row.kind !== 'microsoft' || !row.channelToken || !row.channelId) continue;
        const group = groups.get(row.channelId)!;
        const verdict = verifyMicrosoftNotification({ value: group }, openSecret(row.channelToken, key!));
        if (!verdict.accepted) continue;
        accepted += 1;
        const events = verdict.lifecycle.map((item) => item.event);
        if (events.includes('subscriptionRemoved'))
          await due(row, { channelId: null, channelToken: null, channelExpiresAt: null });
        else if (events.includes('reauthorizationRequired'))
          await due(row, { channelExpiresAt: clock.now() });
        else if (!alreadyDue(row, clock.now()) && (await allow(row.channelId))) await due(row);
      }
      return accepted > 0 ? 'accepted' : 'refused';
    },
  };
}

export function createCalendarPush(deps: CalendarDeps) {
  return { ...createChannelRenewals(deps), ...createPushReceivers(deps) };
}
export type CalendarPush = ReturnType<typeof createCalendarPush>;
