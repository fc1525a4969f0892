import type { Env } from './env.ts';

/** Each provider's config derived from the environment: social sign-in, texting, billing, web push. */

export class ConfigError extends Error {}

export interface StripePrices {
  STARTER: { monthly: string | undefined; yearly: string | undefined };
  GROWTH: { monthly: string | undefined; yearly: string | undefined };
}

/**
 * Local test-card billing unless STRIPE_SECRET_KEY is set. Stripe with a missing publishable key or price id
 * still starts, `configured: false`, so the billing tab shows its not-configured notice (SPEC §8).
 */
export type BillingConfig =
  | { provider: 'local'; configured: true }
  | {
      provider: 'stripe';
      configured: boolean;
      secretKey: string;
      publishableKey: string | undefined;
      webhookSecret: string | undefined;
      /** Overrides https://api.stripe.com (contract tests point it at a local server). */
      apiUrl: string | undefined;
      prices: StripePrices;
    };

/** The local phone simulator unless PLIVO_AUTH_ID is set (then PLIVO_AUTH_TOKEN is required too). */
export type SmsConfig = (
  | { provider: 'local' }
  | {
      provider: 'plivo';
      authId: string;
      authToken: string;
      /** Overrides https://api.plivo.com (contract tests point it at a local server). */
      apiUrl: string;
    }
) & {
  /** Messages per second per account, never exceeded by the outbox (SMS_SEND_RATE). */
  sendRate: number;
};

/**
 * Social sign-in (issue 7). A provider is configured when its id is set (Facebook: app id and secret, both
 * or neither); an unconfigured one is `undefined`, and its button says so. The URLs are the providers' own
 * unless a test overrides them.
 */
export interface SocialConfig {
  google: { clientId: string; jwksUrl: string; tokenInfoUrl: string; userInfoUrl: string } | undefined;
  facebook: { appId: string; appSecret: string; graphUrl: string } | undefined;
  apple: { clientId: string; jwksUrl: string } | undefined;
}

export interface PushConfig {
  /** Both set, or both undefined (then generated and stored in the database). */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  subject: string;
  /** Origins of local push services allowed on loopback over http (LOCAL_PUSH_SERVICES); none by default. */
  localServices: string[];
}

export function pushConfig(env: Env, mailFrom: string): PushConfig {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY))
    throw new ConfigError('Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together');
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  return {
    vapidKeys:
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY }
        : undefined,
    subject: env.VAPID_SUBJECT ?? `mailto:${address}`,
    localServices: env.LOCAL_PUSH_SERVICES,
  };
}

const withoutTrailingSlash = (url: string) => url.replace(/\/$/, '');

export function socialConfig(env: Env): SocialConfig {
  if (env.FACEBOOK_APP_ID && !env.FACEBOOK_APP_SECRET)
    throw new ConfigError(
      'Invalid configuration: FACEBOOK_APP_SECRET is required when FACEBOOK_APP_ID is set',
    );
  if (env.FACEBOOK_APP_SECRET && !env.FACEBOOK_APP_ID)
    throw new ConfigError(
      'Invalid configuration: FACEBOOK_APP_ID is required when FACEBOOK_APP_SECRET is set',
    );
  return {
    google: env.GOOGLE_CLIENT_ID
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          jwksUrl: env.GOOGLE_JWKS_URL ?? 'https://www.googleapis.com/oauth2/v3/certs',
          tokenInfoUrl: env.GOOGLE_TOKENINFO_URL ?? 'https://oauth2.googleapis.com/tokeninfo',
          userInfoUrl: env.GOOGLE_USERINFO_URL ?? 'https://openidconnect.googleapis.com/v1/userinfo',
        }
      : undefined,
    facebook:
      env.FACEBOOK_APP_ID && env.FACEBOOK_APP_SECRET
        ? {
            appId: env.FACEBOOK_APP_ID,
            appSecret: env.FACEBOOK_APP_SECRET,
            graphUrl: withoutTrailingSlash(env.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v25.0'),
          }
        : undefined,
    apple: env.APPLE_CLIENT_ID
      ? {
          clientId: env.APPLE_CLIENT_ID,
          jwksUrl: env.APPLE_JWKS_URL ?? 'https://appleid.apple.com/auth/keys',
        }
      : undefined,
  };
}

export function smsConfig(env: Env): SmsConfig {
  const sendRate = env.SMS_SEND_RATE;
  if (!env.PLIVO_AUTH_ID && !env.PLIVO_AUTH_TOKEN) return { provider: 'local', sendRate };
  if (!env.PLIVO_AUTH_ID)
    throw new ConfigError('Invalid configuration: PLIVO_AUTH_ID is required when PLIVO_AUTH_TOKEN is set');
  if (!env.PLIVO_AUTH_TOKEN)
    throw new ConfigError('Invalid configuration: PLIVO_AUTH_TOKEN is required when PLIVO_AUTH_ID is set');
  return {
    provider: 'plivo',
    authId: env.PLIVO_AUTH_ID,
    authToken: env.PLIVO_AUTH_TOKEN,
    apiUrl: (env.PLIVO_API_URL ?? 'https://api.plivo.com').replace(/\/$/, ''),
    sendRate,
  };
}

export function billingConfig(env: Env): BillingConfig {
  if (!env.STRIPE_SECRET_KEY) return { provider: 'local', configured: true };
  const prices: StripePrices = {
    STARTER: { monthly: env.STRIPE_PRICE_STARTER_MONTHLY, yearly: env.STRIPE_PRICE_STARTER_YEARLY },
    GROWTH: { monthly: env.STRIPE_PRICE_GROWTH_MONTHLY, yearly: env.STRIPE_PRICE_GROWTH_YEARLY },
  };
  const everyPrice = [prices.STARTER, prices.GROWTH].every((plan) => plan.monthly && plan.yearly);
  return {
    provider: 'stripe',
    configured: Boolean(env.STRIPE_PUBLISHABLE_KEY) && everyPrice,
    secretKey: env.STRIPE_SECRET_KEY,
    publishableKey: env.STRIPE_PUBLISHABLE_KEY,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET,
    apiUrl: env.STRIPE_API_URL,
    prices,
  };
}
