import { randomUUID } from 'node:crypto';
import {
  type Answer,
  type FakeGraphSubscription,
  type GraphLifecycle,
  type GraphState,
  graphError,
  MAX_EVENT_SUBSCRIPTION_MINUTES,
  TENANT,
} from './state.ts';

/**
 * Graph's subscriptions: create (after the validation handshake with each address, answered within 10 s
 * with the token as text/plain), renew, delete; and the notifications a test sends as Graph would.
 */

const tooLate = () =>
  graphError(400, 'ExtensionError', 'Subscription expiration can only be 4230 minutes in the future.');
const latest = () => Date.now() + MAX_EVENT_SUBSCRIPTION_MINUTES * 60_000;

async function handshake(address: string): Promise<boolean> {
  const validationToken = `Validation: Testing client application reachability for subscription Request-Id: ${randomUUID()}`;
  const url = new URL(address);
  url.searchParams.set('validationToken', validationToken);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal: AbortSignal.timeout(10_000),
    });
    const type = response.headers.get('content-type') ?? '';
    return (
      response.status === 200 && type.startsWith('text/plain') && (await response.text()) === validationToken
    );
  } catch {
    return false;
  }
}

export async function subscribe(
  state: GraphState,
  body: Record<string, string | undefined>,
): Promise<Answer> {
  const expires = Date.parse(body.expirationDateTime ?? '');
  if (!body.notificationUrl || !body.resource || !body.changeType || Number.isNaN(expires))
    return graphError(
      400,
      'ExtensionError',
      'notificationUrl, resource, changeType and expirationDateTime are required.',
    );
  if (expires > latest() || expires < Date.now()) return tooLate();
  if ((body.clientState ?? '').length > 128)
    return graphError(400, 'ExtensionError', 'clientState is longer than 128 characters.');
  for (const address of [body.notificationUrl, body.lifecycleNotificationUrl])
    if (address && !(await handshake(address)))
      return graphError(
        400,
        'ValidationError',
        'Subscription validation request failed. Notification endpoint must respond with 200 OK to validation request.',
      );
  const subscription: FakeGraphSubscription = {
    id: randomUUID(),
    resource: body.resource,
    changeType: body.changeType,
    notificationUrl: body.notificationUrl,
    lifecycleNotificationUrl: body.lifecycleNotificationUrl ?? null,
    clientState: body.clientState ?? null,
    expirationDateTime: new Date(expires).toISOString(),
  };
  state.fake.subscriptions.set(subscription.id, subscription);
  const extra = {
    applicationId: state.fake.clientId,
    creatorId: randomUUID(),
    latestSupportedTlsVersion: 'v1_2',
  };
  return { status: 201, body: { ...subscription, ...extra } };
}

/** PATCH (renew) or DELETE /subscriptions/{id}; 404 for one Graph does not have. */
export function changeSubscription(
  state: GraphState,
  method: string,
  id: string,
  body: Record<string, string | undefined>,
): Answer {
  const subscription = state.fake.subscriptions.get(id);
  if (!subscription) return graphError(404, 'ResourceNotFound', 'The object was not found.');
  if (method === 'DELETE') {
    state.fake.subscriptions.delete(id);
    return { status: 204 };
  }
  const expires = Date.parse(body.expirationDateTime ?? '');
  if (Number.isNaN(expires) || expires > latest()) return tooLate();
  subscription.expirationDateTime = new Date(expires).toISOString();
  return { status: 200, body: subscription };
}

const post = async (url: string, body: unknown) =>
  (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  ).status;

/** A change notification as Graph POSTs it to the subscription's notificationUrl. */
export function notify(
  state: GraphState,
  subscriptionId: string,
  change: { changeType?: string; eventId?: string; clientState?: string },
): Promise<number> {
  const { fake } = state;
  const subscription = fake.subscriptions.get(subscriptionId);
  if (!subscription) throw new Error(`No subscription ${subscriptionId}`);
  const resource = `Users/${fake.owner}/Events/${change.eventId ?? 'AAMkUnknown'}`;
  const item = {
    subscriptionId,
    subscriptionExpirationDateTime: subscription.expirationDateTime,
    changeType: change.changeType ?? 'updated',
    resource,
    resourceData: { '@odata.type': '#Microsoft.Graph.Event', '@odata.id': resource, id: change.eventId },
    clientState: change.clientState ?? subscription.clientState,
    tenantId: TENANT,
  };
  return post(subscription.notificationUrl, { value: [item] });
}

/** A lifecycle notification to the lifecycleNotificationUrl; subscriptionRemoved also removes it here. */
export function lifecycle(
  state: GraphState,
  subscriptionId: string,
  event: GraphLifecycle,
  clientState?: string,
): Promise<number> {
  const subscription = state.fake.subscriptions.get(subscriptionId);
  if (!subscription?.lifecycleNotificationUrl) throw new Error(`No lifecycle address for ${subscriptionId}`);
  const item = {
    subscriptionId,
    subscriptionExpirationDateTime: subscription.expirationDateTime,
    tenantId: TENANT,
    clientState: clientState ?? subscription.clientState,
    lifecycleEvent: event,
  };
  if (event === 'subscriptionRemoved') state.fake.subscriptions.delete(subscriptionId);
  return post(subscription.lifecycleNotificationUrl, { value: [item] });
}
