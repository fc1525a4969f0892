import {
  type BillingPeriod,
  DEFAULT_PLAN_CATALOGUE,
  type PlanCatalogue,
  type PlanLimits,
  type PlanType,
  type Pricing,
  planLabels,
  typeOfPlan,
} from '@waitlist/contract';

export type PaidPlan = 'starter' | 'growth';

export type PlanDescription = {
  type: PlanType;
  plan: PaidPlan;
  name: string;
  tagline: string;
  features: string[];
};

/** Features both paid plans share (SPEC §9 "Both"). */
const sharedFeatures = [
  'Mobile app access',
  'Dedicated text number',
  'Earnings dashboard',
  '7 day free trial',
];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** A plan's limits as its card lists them (issue 39: the operator's catalogue, from GET /config). */
export function limitFeatures(limits: PlanLimits): string[] {
  return [
    limits.waitlistSize === null ? 'Unlimited waitlist' : `Waitlist up to ${limits.waitlistSize} customers`,
    limits.alertsPerDay === null
      ? 'Unlimited cancellation alerts'
      : `${plural(limits.alertsPerDay, 'cancellation alert')} per day`,
    ...(limits.textsIncluded === null ? [] : [`${limits.textsIncluded} text segments a month included`]),
  ];
}

/** The paid plans in the order the cards show them, named and limited as the operator configures them. */
export function paidPlanDescriptions(catalogue: PlanCatalogue): PlanDescription[] {
  return [
    {
      type: 'STARTER',
      plan: 'starter',
      name: catalogue.starter.name.replace(/ Plan$/, ''),
      tagline: 'Fill cancelled slots from a short waitlist.',
      features: [...limitFeatures(catalogue.starter), ...sharedFeatures],
    },
    {
      type: 'GROWTH',
      plan: 'growth',
      name: catalogue.growth.name.replace(/ Plan$/, ''),
      tagline: 'For busy businesses with a longer waitlist.',
      features: [...limitFeatures(catalogue.growth), ...sharedFeatures],
    },
  ];
}

/** SPEC §9 plans and limits (the default catalogue), in the order the cards show them. */
export const paidPlanCatalog: PlanDescription[] = paidPlanDescriptions(DEFAULT_PLAN_CATALOGUE);

export const planLabel = (plan: keyof typeof planLabels) => planLabels[plan];

export const periodLabel = (period: BillingPeriod) => (period === 'monthly' ? 'monthly' : 'yearly');

/** "Growth Plan (yearly)": how a plan reads in the notification email and the change dialog. */
export const planWithPeriod = (plan: PaidPlan, period: BillingPeriod) =>
  `${planLabels[plan]} (${periodLabel(period)})`;

export type PlanSelection = { plan: PaidPlan; billingPeriod: BillingPeriod };

/** What the owner pays for now: a live paid subscription, or nothing (free trial, ended). */
export type CurrentPaidPlan = PlanSelection | null;

export type ChangeTiming = 'none' | 'now_full' | 'now_prorated' | 'period_end';

/**
 * Mirrors the service's rules (issue 4) so the dialog can say what will happen before it happens;
 * the server's answer (`effective`) is what the screen reports afterwards.
 * Trial → paid: full price now. Cheaper → more expensive price: prorated difference now.
 * More expensive → cheaper (Growth → Starter, yearly → monthly): at the end of the period.
 */
export function changeTiming(
  current: CurrentPaidPlan,
  target: PlanSelection,
  pricing: Pricing,
): ChangeTiming {
  if (!current) return 'now_full';
  if (current.plan === target.plan && current.billingPeriod === target.billingPeriod) return 'none';
  const currentPrice = pricing[typeOfPlan[current.plan]][current.billingPeriod].amount;
  const targetPrice = pricing[typeOfPlan[target.plan]][target.billingPeriod].amount;
  return targetPrice > currentPrice ? 'now_prorated' : 'period_end';
}
