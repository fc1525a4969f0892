import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createManualClock } from '../../lib/clock.ts';
import {
  FAKE_PRICES,
  FAKE_SECRET_KEY,
  type FakeStripe,
  type RecordedRequest,
  startFakeStripe,
} from '../../test/fake-stripe.ts';
import type { BillingProvider } from './index.ts';
import { createStripeBillingProvider, type StripeProviderOptions } from './stripe.ts';

/**
 * Contract tests of the Stripe provider: the real SDK talks to a local server that answers like the Stripe
 * API (test/fake-stripe.ts), and the tests assert what the SDK sends (paths, form bodies, headers). Shared by
 * stripe*.test.ts; each test file gets its own fake Stripe and its own copy of this module's state.
 */

export let fake: FakeStripe;
export let clock: ReturnType<typeof createManualClock>;
export let stripe: BillingProvider;
export const DAY = 24 * 60 * 60;

export const providerWith = (overrides: Partial<StripeProviderOptions> = {}) =>
  createStripeBillingProvider({
    secretKey: FAKE_SECRET_KEY,
    publishableKey: 'pk_test_fake',
    webhookSecret: 'whsec_fake',
    apiUrl: fake.url,
    prices: { STARTER: { ...FAKE_PRICES.STARTER }, GROWTH: { ...FAKE_PRICES.GROWTH } },
    publicUrl: 'http://app.test',
    clock,
    ...overrides,
  });

/** Registers the suite's hooks: one fake Stripe per file; a fresh clock, provider and request log per test. */
export function useFakeStripe() {
  beforeAll(async () => {
    fake = await startFakeStripe();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    clock = createManualClock(new Date(fake.now * 1000));
    stripe = providerWith();
    fake.clear();
  });
}

let userCounter = 0;
export async function newCustomer() {
  userCounter += 1;
  return stripe.createCustomer({
    id: `00000000-0000-4000-8000-${String(userCounter).padStart(12, '0')}`,
    email: `owner${userCounter}@example.com`,
    name: 'Bella Rossi',
  });
}
/** A customer with a default card, as after the Billing tab's add-card flow. */
export async function customerWithCard(decline: 'generic_decline' | 'insufficient_funds' | null = null) {
  const customerId = await newCustomer();
  const card = fake.addCard(customerId, { decline });
  await stripe.setDefaultPaymentMethod(customerId, card);
  fake.clear();
  return { customerId, card };
}
export const only = (method: string, path: string | RegExp): RecordedRequest => {
  const found = fake.find(method, path);
  expect(found, `${method} ${path}`).toHaveLength(1);
  return found[0]!;
};
export const subscriptionOf = (customerId: string) =>
  [...fake.subscriptions.values()].filter((sub) => sub.customer === customerId);
