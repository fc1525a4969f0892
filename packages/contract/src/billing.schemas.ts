import { z } from 'zod';
import { billingMessages } from './billing.messages.ts';
import { billingFieldMessages } from './field-messages.ts';

/**
 * The billing contract (SPEC §3, §7 "Billing" and "Notifications"). The paths keep the SPEC's `/stripe/*`
 * names whichever provider is active (Stripe, or the local test-card billing that `npm start` uses).
 * Timestamps in these answers are Unix seconds, as Stripe's are (SPEC §3 "Subscription", "Invoice").
 */

export const planTypes = ['STARTER', 'GROWTH'] as const;
export type PlanType = (typeof planTypes)[number];
export const billingPeriods = ['monthly', 'yearly'] as const;
export type BillingPeriod = (typeof billingPeriods)[number];

/** Paid plan keys of the API (STARTER/GROWTH) to the user's subscriptionPlan values (starter/growth). */
export const planOfType = { STARTER: 'starter', GROWTH: 'growth' } as const satisfies Record<
  PlanType,
  string
>;
export const typeOfPlan = { starter: 'STARTER', growth: 'GROWTH' } as const;

const money = z.object({ amount: z.number().int().nonnegative(), currency: z.string() });
export const pricingSchema = z.object({
  STARTER: z.object({ monthly: money, yearly: money }),
  GROWTH: z.object({ monthly: money, yearly: money }),
});
export type Pricing = z.infer<typeof pricingSchema>;
export const pricingResponse = z.object({ success: z.literal(true), pricing: pricingSchema });

export const pendingChangeSchema = z.object({
  plan: z.enum(['starter', 'growth']),
  billingPeriod: z.enum(billingPeriods),
  /** Unix seconds: the end of the current period, when the change applies. */
  effective_at: z.number().int(),
});
export type PendingChange = z.infer<typeof pendingChangeSchema>;

export const subscriptionStatuses = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'incomplete',
  'unpaid',
] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

export const subscriptionSchema = z.object({
  id: z.string(),
  status: z.enum(subscriptionStatuses),
  plan: z.enum(['starter', 'growth']),
  billingPeriod: z.enum(billingPeriods),
  cancel_at_period_end: z.boolean(),
  current_period_start: z.number().int(),
  current_period_end: z.number().int(),
  created: z.number().int(),
  pending_change: pendingChangeSchema.nullable(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
/** `subscription` is null while the owner is on the free trial (or never subscribed). */
export const subscriptionResponse = z.object({
  success: z.literal(true),
  subscription: subscriptionSchema.nullable(),
});

export const paymentMethodSchema = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  isDefault: z.boolean(),
});
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;
export const paymentMethodsResponse = z.object({
  success: z.literal(true),
  paymentMethods: z.array(paymentMethodSchema),
});

export const invoiceStatuses = ['paid', 'open', 'void', 'draft', 'uncollectible'] as const;
export const invoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  created: z.number().int(),
  amount_paid: z.number().int(),
  amount_due: z.number().int(),
  currency: z.string(),
  status: z.enum(invoiceStatuses),
  description: z.string(),
  hosted_invoice_url: z.string(),
  invoice_pdf: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
export const invoicesResponse = z.object({ success: z.literal(true), invoices: z.array(invoiceSchema) });

export const setupIntentResponse = z.object({
  success: z.literal(true),
  clientSecret: z.string(),
});

// ---- requests ----
/** SPEC §8: a request without a plan says so; a plan that does not exist is "Invalid plan selected.". */
const planType = z.enum(planTypes, {
  error: (issue) =>
    issue.input === undefined || issue.input === null || issue.input === ''
      ? billingMessages.noPlanSelected
      : billingMessages.invalidPlan,
});
const billingPeriod = z.enum(billingPeriods, { error: billingFieldMessages.billingPeriod });

export const planChangeBody = z.object({ planType, billingPeriod });
export type PlanChangeBody = z.infer<typeof planChangeBody>;
/** POST /stripe/update-subscription: a plan change that may name the card to pay with. */
export const updateSubscriptionBody = planChangeBody.extend({
  paymentMethodId: z.string().min(1, billingFieldMessages.paymentMethodRequired).optional(),
});
export const checkoutSessionBody = planChangeBody;
export const paymentMethodBody = z.object({
  paymentMethodId: z
    .string({ error: billingFieldMessages.paymentMethodRequired })
    .min(1, billingFieldMessages.paymentMethodRequired),
});
export const billingDetailsBody = z.object({
  name: z.string().trim().max(200, billingFieldMessages.nameTooLong).optional(),
  email: z.email('Please enter a valid email address').optional(),
  address: z
    .object({
      line1: z.string().trim().max(200, billingFieldMessages.addressTooLong).optional(),
      city: z.string().trim().max(100, billingFieldMessages.cityTooLong).optional(),
      state: z.string().trim().max(50, billingFieldMessages.stateTooLong).optional(),
      postal_code: z.string().trim().max(20, billingFieldMessages.postalCodeTooLong).optional(),
      country: z.string().trim().length(2, billingFieldMessages.countryCode).optional(),
    })
    .optional(),
});
export type BillingDetailsBody = z.infer<typeof billingDetailsBody>;

export const planChangeNotificationBody = z.object({
  oldPlan: z
    .string()
    .min(1, billingFieldMessages.planNameRequired)
    .max(50, billingFieldMessages.planNameTooLong),
  newPlan: z
    .string()
    .min(1, billingFieldMessages.planNameRequired)
    .max(50, billingFieldMessages.planNameTooLong),
});

// ---- answers to changes ----
export const subscriptionChangeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionSchema.nullable(),
  /** `now`: charged and applied; `period_end`: scheduled as `subscription.pending_change`; `none`: no change. */
  effective: z.enum(['now', 'period_end', 'none']),
  /** The prorated invoice paid for a change that applies now. */
  invoice: invoiceSchema.nullable(),
});
export type SubscriptionChangeResponse = z.infer<typeof subscriptionChangeResponse>;

/**
 * GET /stripe/plan-change-preview?planType=&billingPeriod= (issue 27): what confirming the change would do and
 * charge today, before the owner confirms; nothing is changed or charged.
 */
export const planChangePreviewQuery = planChangeBody;
export const planChangePreviewSchema = z.object({
  /** As the change's answer: `now` (charged today), `period_end` (scheduled), `none` (the current plan). */
  effective: z.enum(['now', 'period_end', 'none']),
  /** Cents charged today: the full price, the prorated difference, or 0. */
  amountDue: z.number().int().nonnegative(),
  currency: z.string(),
  /** When a scheduled change starts (Unix seconds), else null. */
  effectiveAt: z.number().nullable(),
});
export type PlanChangePreview = z.infer<typeof planChangePreviewSchema>;
export const planChangePreviewResponse = z.object({
  success: z.literal(true),
  data: planChangePreviewSchema,
});

/** POST /stripe/cancel-subscription and /stripe/resume-subscription: the subscription after the change. */
export const subscriptionActionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  subscription: subscriptionSchema,
});
export type SubscriptionActionResponse = z.infer<typeof subscriptionActionResponse>;

export const paymentMethodChangeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  paymentMethods: z.array(paymentMethodSchema),
});

/** Checkout and portal sessions: the SPEC reads the result in `data`. */
export const redirectSessionResponse = z.object({
  success: z.literal(true),
  data: z.object({ id: z.string(), url: z.string() }),
});

/** GET /config's billing part: which card form to show, and whether payments are set up at all. */
export const billingConfigSchema = z.object({
  provider: z.enum(['local', 'stripe']),
  /** Stripe only: the key Stripe Elements needs. */
  publishableKey: z.string().nullable(),
  /** False when a provider is chosen but its configuration is incomplete (SPEC §8 not-configured notice). */
  configured: z.boolean(),
});
export type BillingConfig = z.infer<typeof billingConfigSchema>;

/** The local provider's card confirmation (the role Stripe.js's confirmCardSetup plays with Stripe). */
export const localConfirmSetupBody = z.object({
  clientSecret: z.string().min(1, billingMessages.setupIntentInvalid),
  number: z.string().min(1, billingFieldMessages.cardNumberRequired),
  expMonth: z.coerce.number().int(billingMessages.invalidExpiry),
  expYear: z.coerce.number().int(billingMessages.invalidExpiry),
  cvc: z.string().min(1, billingFieldMessages.cvcRequired),
});
export const localConfirmSetupResponse = z.object({ success: z.literal(true), paymentMethodId: z.string() });
