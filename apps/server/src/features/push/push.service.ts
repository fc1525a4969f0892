import { ECDH } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type PushSubscriptionBody, pushMessages } from '@waitlist/contract';
import webpush from 'web-push';
import type { PushConfig } from '../../config.ts';
import type { Database, Executor } from '../../db/client.ts';
import type { UserRow } from '../../db/rows.ts';
import { BadRequest, Conflict } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { enqueuePushDelivery, type OutboxRow, type PushOutboxPayload } from '../../outbox/index.ts';
import * as repo from './push.repo.ts';
import { PushEndpointRefused, type PushEndpoints } from './push-endpoint.ts';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The configured pair, else the one stored in the database, generated on first start (one row, id 1). */
export async function loadVapidKeys(db: Database, config: PushConfig): Promise<VapidKeys> {
  if (config.vapidKeys) return config.vapidKeys;
  return repo.storedVapidKeys(db, webpush.generateVAPIDKeys());
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

/** The owner's push fields on the users table (features/auth's repo, wired in composition.ts). */
export interface PushUsers {
  setPushSettings(
    executor: Executor,
    id: string,
    settings: { pushNotificationsEnabled: boolean; devicePlatform?: string | null },
  ): Promise<UserRow | undefined>;
}

export function createPushService(deps: {
  db: Database;
  keys: () => Promise<VapidKeys>;
  users: PushUsers;
  endpoints: PushEndpoints;
}) {
  const { db } = deps;
  return {
    publicKey: async () => (await deps.keys()).publicKey,

    /**
     * Stores the device's subscription and turns push on. The endpoint must be allowed (push-endpoint.ts);
     * one that is already another account's stays theirs: 409, nothing changes (issue 24).
     */
    async subscribe(user: UserRow, body: PushSubscriptionBody): Promise<UserRow> {
      if (!URL.canParse(body.endpoint))
        throw new BadRequest(pushMessages.subscriptionRequired, { endpoint: 'must be an https URL' });
      if (!onCurve(body.keys.p256dh))
        throw new BadRequest(pushMessages.subscriptionRequired, {
          'keys.p256dh': 'must be a P-256 public key',
        });
      if (Buffer.from(body.keys.auth, 'base64url').length !== 16)
        throw new BadRequest(pushMessages.subscriptionRequired, { 'keys.auth': 'must be 16 bytes' });
      try {
        await deps.endpoints.check(body.endpoint);
      } catch (error) {
        if (!(error instanceof PushEndpointRefused)) throw error;
        throw new BadRequest(pushMessages.endpointRefused, { endpoint: error.message });
      }
      return db.transaction(async (tx) => {
        const values = {
          userId: user.id,
          endpoint: body.endpoint,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          platform: body.platform ?? null,
        };
        const stored = await repo.upsertOwnSubscription(tx, values);
        if (!stored) throw new Conflict(pushMessages.endpointTaken);
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
 * One POST with node:http(s), so the connection takes the endpoint policy's `lookup`: the address checked
 * is the address connected to. No redirect is followed (a 3xx is an answer like any other).
 */
function post(
  target: ReturnType<PushEndpoints['connection']>,
  request: { method: string; headers: Record<string, string>; body: Buffer },
  timeoutMs: number,
): Promise<number> {
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      target.url,
      {
        method: request.method,
        headers: request.headers,
        lookup: target.lookup,
        // A fresh connection per push: a pooled socket would skip the lookup of this request.
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(request.body);
  });
}

/**
 * Sends one queued push: web-push encrypts the payload (aes128gcm, RFC 8291) and signs the VAPID JWT; the
 * request itself goes out through `post` (web-push's own sender speaks https only). 404/410: the subscription
 * is gone, its row is removed and the push is done. An endpoint the policy refuses now (its name resolves to
 * a private address since, or it was stored before the policy): nothing is sent, the row is removed. Any
 * other failure throws and the outbox retries.
 */
export function createPushDelivery(deps: {
  db: Database;
  keys: () => Promise<VapidKeys>;
  subject: string;
  logger: Logger;
  endpoints: PushEndpoints;
  timeoutMs?: number;
}) {
  return {
    async deliver(row: OutboxRow) {
      const payload = row.payload as PushOutboxPayload;
      const subscription = await repo.findSubscription(deps.db, payload.subscriptionId);
      if (!subscription) return; // unsubscribed since: nothing to send
      const refused = async (error: PushEndpointRefused) => {
        await repo.deleteSubscription(deps.db, subscription.id);
        deps.logger.warn(
          { subscriptionId: subscription.id, reason: error.message },
          'push endpoint refused; subscription removed',
        );
      };
      let target: ReturnType<PushEndpoints['connection']>;
      try {
        target = deps.endpoints.connection(subscription.endpoint);
      } catch (error) {
        if (error instanceof PushEndpointRefused) return refused(error);
        throw error;
      }
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
      let status: number;
      try {
        status = await post(
          target,
          {
            method: details.method,
            headers: details.headers as Record<string, string>,
            body: details.body as Buffer,
          },
          deps.timeoutMs ?? 10_000,
        );
      } catch (error) {
        if (error instanceof PushEndpointRefused) return refused(error);
        throw new PushSendError(`push service unreachable: ${(error as Error).message}`);
      }
      if (status === 404 || status === 410) {
        await repo.deleteSubscription(deps.db, subscription.id);
        deps.logger.info({ subscriptionId: subscription.id }, 'push subscription expired; removed');
        return;
      }
      if (status < 200 || status >= 300) throw new PushSendError(`push service answered ${status}`);
    },
  };
}
