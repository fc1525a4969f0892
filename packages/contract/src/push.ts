import { z } from 'zod';
import { fieldMessages } from './field-messages.ts';
import { userSchema } from './user.schemas.ts';

/** Web push to the owner's phone (issue 14, SPEC "mobile app access"). */
export const pushMessages = {
  /** "Priya took your 3:00 pm slot" */
  claimedTitle: (name: string, time: string) => `${name} took your ${time} slot`,
  claimedBody: 'Open Waitlist & Text to see the booking.',
  replyTitle: 'A customer replied',
  unclaimedTitle: 'Nobody has claimed your slot yet',
  unclaimedBody: (time: string) => `Your ${time} slot is still open.`,
  /** "Priya can't make your 3:00 pm slot" (issue 26: the winner texted that they cannot come). */
  backedOutTitle: (name: string, time: string) => `${name} can't make your ${time} slot`,
  backedOutBody: 'It is being offered to the next customer in line.',
  subscriptionRequired: 'A push subscription needs an https endpoint and its p256dh and auth keys.',
  /** 400: a key that is not the browser's base64url text (issue 27: in the catalogue). */
  badKey: "This push key is not valid: it must be the browser's base64url text.",
  /** 400: the endpoint is not an https URL on a public address (issue 24). */
  endpointRefused:
    "This push endpoint can't be used: push notifications are sent only to https push services on the public internet.",
  /** 409: the endpoint is another account's subscription; it is never moved between accounts (issue 24). */
  endpointTaken:
    'This device already gets push notifications for another account. Turn them off in that account first.',
  turnedOn: 'Push notifications are on for this device.',
  turnedOff: 'Push notifications are off.',
  unsupported: 'This browser cannot receive push notifications.',
  denied: 'Notifications are blocked for this site in your browser settings.',
  offline: 'You are offline. Showing the saved app; changes need a connection.',
} as const;

export const devicePlatforms = ['ios', 'android', 'web'] as const;

const base64Url = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, pushMessages.badKey);

/** The browser's PushSubscription.toJSON(), plus the platform the owner uses. */
export const pushSubscriptionBody = z.object({
  endpoint: z
    .string({ error: pushMessages.subscriptionRequired })
    .trim()
    .max(2048, fieldMessages.tooLong(2048)),
  keys: z.object(
    {
      p256dh: base64Url.min(80, pushMessages.badKey).max(100, pushMessages.badKey),
      auth: base64Url.min(16, pushMessages.badKey).max(32, pushMessages.badKey),
    },
    { error: pushMessages.subscriptionRequired },
  ),
  platform: z.enum(devicePlatforms).optional(),
});
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;

export const pushUnsubscribeBody = z
  .object({ endpoint: z.string().trim().max(2048, fieldMessages.tooLong(2048)).optional() })
  .optional()
  .nullable();

export const pushKeyResponse = z.object({
  success: z.literal(true),
  data: z.object({ publicKey: z.string() }),
});

export const pushSettingsResponse = z.object({
  success: z.literal(true),
  data: userSchema,
  message: z.string(),
});

/** What the service worker receives (the encrypted payload's JSON). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
}
