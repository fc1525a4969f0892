import type { Invoice, PaymentMethod, Pricing, Subscription } from '@waitlist/contract';
import type { MockAnswer, RecordedCall } from './mock-api.ts';

/** Unix seconds of a UTC date at noon (noon keeps the calendar day the same in any test time zone). */
export const unixNoon = (year: number, month: number, day: number) =>
  Date.UTC(year, month - 1, day, 12) / 1000;

/** The local provider's prices (issue 4): yearly with a real 20% saving. */
export const localPricing: Pricing = {
  STARTER: { monthly: { amount: 2900, currency: 'usd' }, yearly: { amount: 27840, currency: 'usd' } },
  GROWTH: { monthly: { amount: 7900, currency: 'usd' }, yearly: { amount: 75840, currency: 'usd' } },
};

export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 'sub_local_1',
    status: 'active',
    plan: 'starter',
    billingPeriod: 'monthly',
    cancel_at_period_end: false,
    current_period_start: unixNoon(2030, 2, 15),
    current_period_end: unixNoon(2030, 3, 15),
    created: unixNoon(2030, 2, 15),
    pending_change: null,
    ...overrides,
  };
}

export function makeCard(overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    id: 'pm_visa',
    brand: 'visa',
    last4: '4242',
    exp_month: 4,
    exp_year: 2031,
    isDefault: true,
    ...overrides,
  };
}

export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 'in_1',
    number: 'WT-0001',
    created: unixNoon(2030, 2, 15),
    amount_paid: 2900,
    amount_due: 2900,
    currency: 'usd',
    status: 'paid',
    description: 'Starter Plan (monthly)',
    hosted_invoice_url: '/api/v1/billing/local/invoices/inv_abc',
    invoice_pdf: '/api/v1/billing/local/invoices/inv_abc/pdf',
    ...overrides,
  };
}

type Handler = MockAnswer | ((call: RecordedCall) => MockAnswer | Promise<MockAnswer>);

export type BillingState = {
  subscription: Subscription | null;
  paymentMethods: PaymentMethod[];
  invoices: Invoice[];
  pricing: Pricing;
};

/**
 * The fake server's billing reads, answering from `state` (mutate it in a handler to play a change).
 * Returns the handlers for mockApi/mockSignedIn and the state object.
 */
export function billingApi(initial: Partial<BillingState> = {}) {
  const state: BillingState = {
    subscription: null,
    paymentMethods: [],
    invoices: [],
    pricing: localPricing,
    ...initial,
  };
  const handlers: Record<string, Handler> = {
    'GET /stripe/pricing': () => ({ body: { success: true, pricing: state.pricing } }),
    'GET /stripe/subscription': () => ({ body: { success: true, subscription: state.subscription } }),
    'GET /stripe/payment-methods': () => ({ body: { success: true, paymentMethods: state.paymentMethods } }),
    'GET /stripe/invoices': () => ({ body: { success: true, invoices: state.invoices } }),
    'GET /phone-number': { body: { success: true, data: { number: null, status: null, error: null } } },
    'POST /notifications/plan-change': { body: { success: true, message: 'Notification sent' } },
    'POST /notifications/plan-cancel': { body: { success: true, message: 'Notification sent' } },
    'POST /notifications/billing-update': { body: { success: true, message: 'Notification sent' } },
  };
  return { state, handlers };
}

/** GET /config with a given billing part. */
export const configWithBilling = (billing: {
  provider: 'local' | 'stripe';
  publishableKey: string | null;
  configured: boolean;
}) => ({
  body: {
    success: true,
    googleClientId: null,
    facebookAppId: null,
    appleClientId: null,
    localMailbox: true,
    localPhone: false,
    billing,
  },
});
