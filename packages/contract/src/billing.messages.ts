import type { Pricing } from './billing.schemas.ts';

import { MONTHLY_PRICE_CENTS, YEARLY_DISCOUNT_PERCENT } from './plan-catalogue.ts';

const yearlyCents = (monthly: number, discountPercent: number) =>
  Math.round((12 * monthly * (100 - discountPercent)) / 100);
const pricing = (discountPercent: number): Pricing => ({
  STARTER: {
    monthly: { amount: MONTHLY_PRICE_CENTS.STARTER, currency: 'usd' },
    yearly: { amount: yearlyCents(MONTHLY_PRICE_CENTS.STARTER, discountPercent), currency: 'usd' },
  },
  GROWTH: {
    monthly: { amount: MONTHLY_PRICE_CENTS.GROWTH, currency: 'usd' },
    yearly: { amount: yearlyCents(MONTHLY_PRICE_CENTS.GROWTH, discountPercent), currency: 'usd' },
  },
});

/**
 * What the server charges, in cents: 2900 / 7900 a month, 27840 / 75840 a year (12 months less 20%). The
 * local provider charges these and the Stripe provider reports them for a price it has no id for; Stripe's
 * own Price objects must carry the same amounts.
 */
export const PLAN_PRICES: Pricing = pricing(YEARLY_DISCOUNT_PERCENT);

/**
 * SPEC §9: what the page shows when GET /stripe/pricing fails. Issue 27: the same prices the server charges,
 * with the same yearly saving, so the toggle still says "Save 20%" (the SPEC's $348 / $948 were twelve months
 * without the saving the toggle promises). One source: PLAN_PRICES, from the same monthly prices and discount.
 */
export const FALLBACK_PRICING: Pricing = PLAN_PRICES;

/** SPEC §9 next-billing-date fallback: created + 30 days (monthly) or 365 days (yearly). */
export const PERIOD_FALLBACK_DAYS = { monthly: 30, yearly: 365 } as const;
/** SPEC §9: timestamps below about 4.1 billion are seconds, above are milliseconds. */
export const SECONDS_TIMESTAMP_LIMIT = 4_100_000_000;

export const ENTERPRISE_SALES_EMAIL = 'sales@waitlistandtext.com';

/** SPEC §8, word for word: billing call defaults, toasts and success messages. */
export const billingMessages = {
  // call defaults (the server's message is preferred, then the error's)
  updateSubscriptionFailed: 'Failed to update subscription',
  sendNotificationFailed: 'Failed to send notification',
  fetchPaymentMethodsFailed: 'Failed to fetch payment methods',
  addPaymentMethodFailed: 'Failed to add payment method',
  deletePaymentMethodFailed: 'Failed to delete payment method',
  setDefaultPaymentMethodFailed: 'Failed to set default payment method',
  fetchInvoicesFailed: 'Failed to fetch invoices',
  createSetupIntentFailed: 'Failed to create setup intent',
  fetchPricingFailed: 'Failed to fetch pricing',
  /** Issue 27: the Confirm Plan Change dialog could not get today's amount (GET /stripe/plan-change-preview). */
  planPreviewFailed: 'Today’s charge could not be checked.',
  updateBillingDetailsFailed: 'Failed to update billing details',
  createPortalSessionFailed: 'Failed to create portal session',
  // toasts (title in brackets in the SPEC)
  loadBillingFailed: 'Failed to load billing information',
  loadBillingFailedTitle: 'Loading Error',
  setDefaultFailedTitle: 'Update Failed',
  deleteFailedTitle: 'Delete Failed',
  cardElementNotFound: 'Card element not found',
  initializePaymentFormFailed: 'Failed to initialize payment form',
  initializePaymentFormFailedTitle: 'Setup Failed',
  loadSubscriptionFailed: 'Failed to load subscription details',
  updateSubscriptionNeedsCard:
    'Failed to update subscription. Please ensure you have a valid payment method on file.',
  cancelSubscriptionFailed: 'Failed to cancel subscription',
  resumeSubscriptionFailed: 'Failed to resume subscription',
  noPlanSelected: 'No plan selected. Please select a plan to continue.',
  invalidPlan: 'Invalid plan selected.',
  invalidSessionId: 'Invalid session ID',
  sessionErrorTitle: 'Session Error',
  // success
  defaultPaymentMethodUpdated: 'Default payment method updated successfully',
  paymentMethodDeleted: 'Payment method deleted successfully',
  paymentMethodAdded: 'Payment method added successfully',
  planChanged: (plan: string) => `Your plan has been changed to ${plan}.`,
  subscriptionCancelled:
    'Your subscription has been cancelled and will remain active until the end of your billing period.',
  subscriptionResumed: 'Your subscription has been resumed successfully.',
  // ours: the server's own answers
  planUnchanged: 'You are already on this plan.',
  noPaymentMethod: 'Add a card on the Billing tab before choosing a paid plan.',
  planChangeScheduled: (plan: string, date: string) => `Your plan will change to ${plan} on ${date}.`,
  proratedCharge: (amount: string) => `A prorated charge of ${amount} was made to your default card.`,
  /** A trial → paid change (or a checkout): the full price of the first period, not a prorated one. */
  fullCharge: (amount: string) => `A charge of ${amount} was made to your default card.`,
  notActive: 'Only an active subscription can be cancelled.',
  alreadyCancelling: 'Your subscription is already set to cancel at the end of the billing period.',
  notCancelling: 'Your subscription is not set to cancel.',
  noSubscription: 'You do not have a paid subscription yet.',
  alreadySubscribed: 'You already have a subscription. Change your plan on the Plan tab.',
  businessDetailsRequired: 'Please complete your business details first.',
  notConfigured: 'Payments are not configured on this server yet.',
  setupIntentInvalid: 'This card form has expired. Please try again.',
  invalidExpiry: "Your card's expiration date is invalid.",
  cardDeclined: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  incorrectNumber: 'Your card number is incorrect.',
  expiredCard: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  testCardsOnly: 'Test mode: use a test card such as 4242 4242 4242 4242.',
  paymentMethodNotFound: 'Payment method not found',
  billingDetailsUpdated: 'Billing details updated',
  notificationSent: 'Notification sent',
  trialExpired: 'Your free trial has ended. Choose a plan to keep texting your waitlist.',
  pastDue: 'Your last payment failed. Update your card on the Billing tab to keep texting your waitlist.',
  canceled: 'Your subscription has ended. Choose a plan to keep texting your waitlist.',
} as const;
