import { z } from 'zod';
import type { Pricing } from './billing.schemas.ts';

/**
 * The plans as the operator configures them (issue 39): names, monthly prices, waitlist size, cancellation
 * alerts a day and texts included, per plan. The server reads PLANS_JSON at boot (config.ts), serves the result
 * on GET /config, and every price, limit and refusal reads it; the SPEC's values are the default. The local
 * billing provider charges these prices; with Stripe, its Price objects (STRIPE_PRICE_*) charge and must carry
 * the same amounts (the catalogue's stand in only for a price with no id).
 */
/**
 * The SPEC's monthly price of each plan, in cents: the default catalogue's prices and the standard prices
 * (billing.messages.ts's PLAN_PRICES) both come from here. Kept here, not with the billing messages, so a page
 * that reads the plans (the join page's cap) does not load billing's words (issue 40).
 */
export const MONTHLY_PRICE_CENTS = { STARTER: 2900, GROWTH: 7900 } as const;
/** Yearly billing saves 20% on twelve months (the toggle's "Save 20%"). */
export const YEARLY_DISCOUNT_PERCENT = 20;

export const catalogPlans = ['free_trial', 'starter', 'growth', 'enterprise'] as const;
export type CatalogPlan = (typeof catalogPlans)[number];

/** A whole number ≥ 1, or null for no limit. */
const limit = z.number().int().min(1).max(1_000_000).nullable();

export const planLimitsSchema = z
  .object({
    /** "Starter Plan": how the plan reads on the plan page and in every refusal. */
    name: z.string().trim().min(1).max(40),
    /** Customers on the waitlist at once; null: no limit. */
    waitlistSize: limit,
    /** Openings texted to the waitlist (cancellation alerts) a day, in the business's time zone; null: no limit. */
    alertsPerDay: limit,
    /** Text segments a month the plan's price covers, counted on the plan page; null: no monthly allowance. */
    textsIncluded: z.number().int().min(0).max(10_000_000).nullable(),
    /** Cents a month, billed monthly (yearly: twelve months less YEARLY_DISCOUNT_PERCENT); null: not sold by card. */
    monthlyPrice: z.number().int().min(0).max(100_000_000).nullable(),
  })
  .strict();
export type PlanLimits = z.infer<typeof planLimitsSchema>;

/** Starter and Growth are sold by card: each has a price. */
const soldPlanSchema = planLimitsSchema.extend({ monthlyPrice: z.number().int().min(1).max(100_000_000) });

export const planCatalogueSchema = z
  .object({
    free_trial: planLimitsSchema,
    starter: soldPlanSchema,
    growth: soldPlanSchema,
    enterprise: planLimitsSchema,
  })
  .strict();
export type PlanCatalogue = z.infer<typeof planCatalogueSchema>;

/** SPEC §9: Starter 25 customers and 1 cancellation alert a day, Growth 100 and 2; the trial as Starter. */
export const DEFAULT_PLAN_CATALOGUE: PlanCatalogue = {
  free_trial: {
    name: 'Free Trial',
    waitlistSize: 25,
    alertsPerDay: 1,
    textsIncluded: null,
    monthlyPrice: null,
  },
  starter: {
    name: 'Starter Plan',
    waitlistSize: 25,
    alertsPerDay: 1,
    textsIncluded: null,
    monthlyPrice: MONTHLY_PRICE_CENTS.STARTER,
  },
  growth: {
    name: 'Growth Plan',
    waitlistSize: 100,
    alertsPerDay: 2,
    textsIncluded: null,
    monthlyPrice: MONTHLY_PRICE_CENTS.GROWTH,
  },
  enterprise: {
    name: 'Enterprise Plan',
    waitlistSize: null,
    alertsPerDay: null,
    textsIncluded: null,
    monthlyPrice: null,
  },
};

const yearlyCents = (monthly: number) => Math.round((12 * monthly * (100 - YEARLY_DISCOUNT_PERCENT)) / 100);

/** The paid plans' prices in cents (monthly, and yearly less the discount) from a catalogue. */
export function pricingOf(catalogue: PlanCatalogue): Pricing {
  const of = (monthly: number | null) => ({
    monthly: { amount: monthly ?? 0, currency: 'usd' },
    yearly: { amount: yearlyCents(monthly ?? 0), currency: 'usd' },
  });
  return { STARTER: of(catalogue.starter.monthlyPrice), GROWTH: of(catalogue.growth.monthlyPrice) };
}

/**
 * PLANS_JSON as the operator writes it: any plan and any field may be left out and keeps its default
 * (`{"starter":{"alertsPerDay":3}}`). Returns the whole catalogue, or the first problem in one line.
 */
export function parsePlanCatalogue(json: string): { catalogue: PlanCatalogue } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return { problem: 'is not valid JSON' };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { problem: `must be an object keyed by ${catalogPlans.join(', ')}` };
  const merged: Record<string, unknown> = {};
  for (const [plan, fields] of Object.entries(raw)) {
    const base = DEFAULT_PLAN_CATALOGUE[plan as CatalogPlan];
    merged[plan] = base && typeof fields === 'object' && fields !== null ? { ...base, ...fields } : fields;
  }
  const parsed = planCatalogueSchema.safeParse({ ...DEFAULT_PLAN_CATALOGUE, ...merged });
  if (parsed.success) return { catalogue: parsed.data };
  const issue = parsed.error.issues[0];
  return { problem: `${issue?.path.join('.') || '(top)'} ${issue?.message ?? 'is invalid'}` };
}

/**
 * The catalogue in force: the server sets it once at start-up from its configuration (one process, one
 * operator), the web from GET /config. Plain module state, because the limits are read by every rule that
 * counts (cap, alerts, refusals' words) and the catalogue never changes while the process runs.
 */
let active: PlanCatalogue = DEFAULT_PLAN_CATALOGUE;

export function setPlanCatalogue(catalogue: PlanCatalogue): void {
  active = catalogue;
}
export function planCatalogue(): PlanCatalogue {
  return active;
}

/** The limits of a users.subscriptionPlan value (an unknown plan counts as the trial). */
export function planLimits(plan: string, catalogue: PlanCatalogue = active): PlanLimits {
  return catalogue[plan as CatalogPlan] ?? catalogue.free_trial;
}
