import { createHash } from 'node:crypto';
import { billingMessages } from '@waitlist/contract';
import Stripe from 'stripe';
import type { Clock } from '../../lib/clock.ts';
import { PaymentError } from './payment-error.ts';
import type { StripePrices } from './stripe-prices.ts';

/**
 * What every piece of the Stripe provider works with: the SDK client, our clock and prices, the public URL.
 */
export interface StripeContext {
  stripe: Stripe;
  clock: Clock;
  prices: StripePrices;
  publicUrl: string;
}

export function createStripeClient(options: {
  secretKey: string;
  apiUrl?: string | undefined;
  maxNetworkRetries?: number | undefined;
}): Stripe {
  return new Stripe(options.secretKey, {
    ...hostOptions(options.apiUrl),
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    // A hung Stripe costs a request at most ~3 × 8 s (retries included), then a clean 503 (issue 17).
    timeout: 8_000,
    appInfo: { name: 'Waitlist & Text' },
  });
}

function hostOptions(apiUrl: string | undefined): Partial<Stripe.StripeConfig> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
  };
}

// ---- errors and keys ----

/** True when Stripe answered from its idempotency cache (the first answer to this key). */
export function replayed(response: { lastResponse?: { headers: Record<string, string> } }): boolean {
  return response.lastResponse?.headers['idempotent-replayed'] === 'true';
}

export function hash(value: string): string {
  return createHash('sha256').update(value).digest('hex').slice(0, 32);
}

/** Stripe accepts keys up to 255 characters; longer ones are hashed, keeping them stable. */
export function idempotencyKeyOf(key: string): string {
  return key.length <= 200 ? key : `${key.slice(0, 40)}:${hash(key)}`;
}

export function isMissingResource(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing';
}

const INVALID_CARD_CODES = new Set([
  'expired_card',
  'incorrect_cvc',
  'incorrect_number',
  'invalid_cvc',
  'invalid_expiry_month',
  'invalid_expiry_year',
  'invalid_number',
]);

/** A refused card becomes a PaymentError carrying Stripe's own message (safe to show the owner). */
export async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) {
      const code =
        error.decline_code === 'insufficient_funds' || error.code === 'insufficient_funds'
          ? 'insufficient_funds'
          : error.code && INVALID_CARD_CODES.has(error.code)
            ? 'invalid_card'
            : 'card_declined';
      throw new PaymentError(error.message || billingMessages.cardDeclined, code);
    }
    throw error;
  }
}
