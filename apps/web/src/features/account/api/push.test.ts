import { pushMessages } from '@waitlist/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../../test/fixtures.ts';
import { mockApi } from '../../../test/mock-api.ts';
import { type PushBrowser, PushSetupError, platformOf, turnOffPush, turnOnPush } from './push.ts';

/**
 * The browser side of "turn push on": the PushManager and Notification APIs are stubbed (headless
 * Chromium has no reachable push service); the server side is proven by the API and e2e tests.
 */
const SERVER_KEY = `B${'A'.repeat(86)}`;
const subscriptionJson = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
  keys: { p256dh: `B${'x'.repeat(86)}`, auth: 'y'.repeat(22) },
};

function stubBrowser(
  options: { permission?: NotificationPermission; supported?: boolean; ua?: string } = {},
) {
  const unsubscribe = vi.fn(async () => true);
  const subscribe = vi.fn(async (_: PushSubscriptionOptionsInit) => ({ toJSON: () => subscriptionJson }));
  const getSubscription = vi.fn(async () => ({ endpoint: subscriptionJson.endpoint, unsubscribe }));
  const browser: PushBrowser = {
    supported: () => options.supported ?? true,
    requestPermission: vi.fn(async () => options.permission ?? 'granted'),
    registration: async () =>
      ({ pushManager: { subscribe, getSubscription } }) as unknown as ServiceWorkerRegistration,
    userAgent: options.ua ?? 'Mozilla/5.0 (Linux; Android 14; Pixel 8)',
  };
  return { browser, subscribe, unsubscribe };
}

describe('turning push on and off in the browser', () => {
  it('asks permission, subscribes with the server VAPID key, posts the subscription with the platform', async () => {
    const user = makeUser({ pushNotificationsEnabled: true, devicePlatform: 'android' });
    const api = mockApi({
      'GET /push/public-key': { body: { success: true, data: { publicKey: SERVER_KEY } } },
      'POST /push/subscriptions': { body: { success: true, data: user, message: pushMessages.turnedOn } },
    });
    const { browser, subscribe } = stubBrowser();
    const answer = await turnOnPush(browser);
    expect(answer.data.pushNotificationsEnabled).toBe(true);
    const options = subscribe.mock.calls[0]![0];
    expect(options.userVisibleOnly).toBe(true);
    const key = options.applicationServerKey as Uint8Array;
    expect(key).toHaveLength(65);
    expect(key[0]).toBe(4);
    const posted = api.calls.find((call) => call.method === 'POST');
    expect(posted?.body).toEqual({ ...subscriptionJson, platform: 'android' });
  });

  it('refuses clearly when notifications are denied or push is unsupported, posting nothing', async () => {
    const api = mockApi({});
    await expect(turnOnPush(stubBrowser({ permission: 'denied' }).browser)).rejects.toEqual(
      new PushSetupError(pushMessages.denied),
    );
    await expect(turnOnPush(stubBrowser({ supported: false }).browser)).rejects.toEqual(
      new PushSetupError(pushMessages.unsupported),
    );
    expect(api.calls.filter((call) => call.path.startsWith('/push'))).toEqual([]);
  });

  it('turning off unsubscribes this browser and tells the server which endpoint', async () => {
    const api = mockApi({
      'DELETE /push/subscriptions': {
        body: { success: true, data: makeUser(), message: pushMessages.turnedOff },
      },
    });
    const { browser, unsubscribe } = stubBrowser();
    await turnOffPush(browser);
    expect(unsubscribe).toHaveBeenCalledOnce();
    expect(api.calls.find((call) => call.method === 'DELETE')?.body).toEqual({
      endpoint: subscriptionJson.endpoint,
    });
  });

  it('names the platform from the user agent', () => {
    expect(platformOf('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)')).toBe('ios');
    expect(platformOf('Mozilla/5.0 (Linux; Android 14)')).toBe('android');
    expect(platformOf('Mozilla/5.0 (X11; Linux x86_64)')).toBe('web');
  });
});
