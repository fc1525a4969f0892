import { ECDH } from 'node:crypto';
import { type PushSubscriptionBody, pushMessages } from '@waitlist/contract';
import webpush from 'web-push';
import type { PushConfig } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { enqueuePushDelivery, type OutboxRow, type PushOutboxPayload } from '../../outbox/index.ts';
import * as repo from './push.repo.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The configured pair, else the one stored in the database, generated on first start (one row, id 1). */
export async function loadVapidKeys(db: Database, config: PushConfig): Promise<VapidKeys> {
  if (config.vapidKeys) return config.vapidKeys;
  return repo.storedVapidKeys(db, webpush.generateVAPIDKeys());
}

const LOOPBACK = /^(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** A push service answers on https; plain http is accepted on this machine only (local push services). */
function validEndpoint(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.username || url.password) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
}

/** An uncompressed P-256 point that is on the curve (ECDH.convertKey throws otherwise). */
function onCurve(p256dh: string): boolean {
  const point = Buffer.from(p256dh, 'base64url');
  if (point.length !== 65 || point[0] !== 4) return false;
  try {
    ECDH.convertKey(point, 'prime256v1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Queues one push per device of the owner, in the caller's transaction, if the owner has push turned on.
 * The narrow dependency features/openings receives (it never sees subscriptions or VAPID keys).
 */
export async function notifyOwner(
  tx: Executor,
  userId: string,
  message: { title: string; body: string; url: string },
  now: Date,
): Promise<number> {
  const rows = await repo.subscriptionsToNotify(tx, userId);
  for (const row of rows) await enqueuePushDelivery(tx, { subscriptionId: row.id, ...message }, now);
  return rows.length;
}
export type NotifyOwner = typeof notifyOwner;

export type PushService = ReturnType<typeof createPushService>;

/** The owner's push fields on the users table (features/auth's repo, wired in app.ts). */
export interface PushUsers {
  setPushSettings(
    executor: Executor,
    id: string,
    settings: { pushNotificationsEnabled: boolean; devicePlatform?: string | null },
  ): Promise<UserRow | undefined>;
}

export function createPushService(deps: { db: Database; keys: () => Promise<VapidKeys>; users: PushUsers }) {
  const { db } = deps;
  return {
    publicKey: async () => (await deps.keys()).publicKey,

    /** Stores (or moves to this owner) the device's subscription and turns push on. */
    async subscribe(user: UserRow, body: PushSubscriptionBody): Promise<UserRow> {
      if (!validEndpoint(body.endpoint))
        throw new BadRequest(pushMessages.subscriptionRequired, { endpoint: 'must be an https URL' });
      if (!onCurve(body.keys.p256dh))
        throw new BadRequest(pushMessages.subscriptionRequired, {
          'keys.p256dh': 'must be a P-256 public key',
        });
      if (Buffer.from(body.keys.auth, 'base64url').length !== 16)
        throw new BadRequest(pushMessages.subscriptionRequired, { 'keys.auth': 'must be 16 bytes' });
      return db.transaction(async (tx) => {
        const values = {
          userId: user.id,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          platform: body.platform ?? null,
        };
        await repo.upsertSubscription(tx, values);
        const updated = await deps.users.setPushSettings(tx, user.id, {
          pushNotificationsEnabled: true,
          devicePlatform: body.platform ?? user.devicePlatform ?? 'web',
        });
        return updated!;
      });
    },

    /** Turns push off: forgets the given device (or every device when no endpoint is given). */
    async unsubscribe(user: UserRow, endpoint: string | undefined): Promise<UserRow> {
      return db.transaction(async (tx) => {
        await repo.deleteSubscriptions(tx, user.id, endpoint);
        const updated = await deps.users.setPushSettings(tx, user.id, { pushNotificationsEnabled: false });
        return updated!;
      });
    },
  };
}

/** Thrown for a push service answer worth retrying (5xx, 429, network). */
class PushSendError extends Error {}

/**
 * Sends one queued push: web-push encrypts the payload (aes128gcm, RFC 8291) and signs the VAPID JWT; the
 * request itself goes out with fetch (web-push's own sender speaks https only). 404/410: the subscription
 * is gone, its row is removed and the push is done; any other failure throws and the outbox retries.
 */
export function createPushDelivery(deps: {
  db: Database;
  keys: () => Promise<VapidKeys>;
  subject: string;
  logger: Logger;
  timeoutMs?: number;
}) {
  return {
    async deliver(row: OutboxRow) {
      const payload = row.payload as PushOutboxPayload;
      const subscription = await repo.findSubscription(deps.db, payload.subscriptionId);
      if (!subscription) return; // unsubscribed since: nothing to send
      const keys = await deps.keys();
      const details = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify({ title: payload.title, body: payload.body, url: payload.url }),
        {
          vapidDetails: { subject: deps.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: 24 * 3600,
          contentEncoding: 'aes128gcm',
          urgency: 'high',
        },
      );
      const response = await fetch(details.endpoint, {
        method: details.method,
        headers: details.headers as Record<string, string>,
        body: details.body as Buffer,
        redirect: 'error',
        signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.status === 404 || response.status === 410) {
        await repo.deleteSubscription(deps.db, subscription.id);
        deps.logger.info({ subscriptionId: subscription.id }, 'push subscription expired; removed');
        return;
      }
      if (!response.ok) throw new PushSendError(`push service answered ${response.status}`);
    },
  };
}
