import { useMutation } from '@tanstack/react-query';
import { pushMessages, type User } from '@waitlist/contract';
import { apiRequest } from '../../../lib/api-client.ts';

/** A reason push cannot be turned on in this browser (its message is shown as is). */
export class PushSetupError extends Error {}

type UserAnswer = { success: true; data: User; message: string };

/** The browser APIs push needs; injected so the flow is unit-tested without a real push service. */
export interface PushBrowser {
  supported(): boolean;
  requestPermission(): Promise<NotificationPermission>;
  registration(): Promise<ServiceWorkerRegistration>;
  userAgent: string;
}

export const realBrowser: PushBrowser = {
  supported: () =>
    typeof navigator !== 'undefined' &&
    'serviceWorker' in navigator &&
    typeof window !== 'undefined' &&
    'PushManager' in window &&
    'Notification' in window,
  requestPermission: () => Notification.requestPermission(),
  registration: async () =>
    (await navigator.serviceWorker.getRegistration('/')) ?? navigator.serviceWorker.register('/sw.js'),
  userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
};

export function platformOf(userAgent: string): 'ios' | 'android' | 'web' {
  if (/android/i.test(userAgent)) return 'android';
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios';
  return 'web';
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Permission, the server's VAPID key, PushManager.subscribe, then POST /push/subscriptions. */
export async function turnOnPush(browser: PushBrowser = realBrowser): Promise<UserAnswer> {
  if (!browser.supported()) throw new PushSetupError(pushMessages.unsupported);
  const permission = await browser.requestPermission();
  if (permission !== 'granted') throw new PushSetupError(pushMessages.denied);
  const key = await apiRequest<{ success: true; data: { publicKey: string } }>('/push/public-key', {
    defaultMessage: pushMessages.unsupported,
  });
  const registration = await browser.registration();
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(key.data.publicKey),
  });
  const json = subscription.toJSON();
  return apiRequest<UserAnswer>('/push/subscriptions', {
    method: 'POST',
    body: { endpoint: json.endpoint, keys: json.keys, platform: platformOf(browser.userAgent) },
    defaultMessage: pushMessages.subscriptionRequired,
  });
}

/** Unsubscribes this browser (if it can) and turns push off on the server. */
export async function turnOffPush(browser: PushBrowser = realBrowser): Promise<UserAnswer> {
  let endpoint: string | undefined;
  if (browser.supported()) {
    const subscription = await (await browser.registration()).pushManager.getSubscription();
    endpoint = subscription?.endpoint;
    await subscription?.unsubscribe();
  }
  return apiRequest<UserAnswer>('/push/subscriptions', {
    method: 'DELETE',
    body: endpoint ? { endpoint } : {},
    defaultMessage: pushMessages.turnedOff,
  });
}

export function usePushToggle(browser?: PushBrowser) {
  return useMutation({ mutationFn: (on: boolean) => (on ? turnOnPush(browser) : turnOffPush(browser)) });
}
