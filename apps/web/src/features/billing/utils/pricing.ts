import type { BillingPeriod, PlanType, Pricing } from '@waitlist/contract';
import { formatCents } from '../../../lib/money.ts';

/** Cents to money, without ".00" for whole amounts ($29, $23.20). */
export const formatMoney = (cents: number, currency = 'usd'): string =>
  formatCents(cents, { currency, wholeDollars: true });

/** SPEC §9: yearly prices are shown per month, the yearly amount divided by 12, rounded (to whole units). */
export function monthlyEquivalent(yearlyCents: number): number {
  return Math.round(yearlyCents / 12 / 100) * 100;
}

/** What a plan shows per month for a period: the monthly price, or the yearly one spread over 12 months. */
export function perMonthPrice(pricing: Pricing, plan: PlanType, period: BillingPeriod): number {
  const price = pricing[plan][period].amount;
  return period === 'monthly' ? price : monthlyEquivalent(price);
}

/**
 * The true yearly saving in whole percent: 1 − yearly / (12 × monthly), never negative.
 * Issue 4: the SPEC's labels disagree (Save 25% on cards, Save 20% on the toggle); we compute the
 * real figure from the prices instead and show that same figure on the toggle and on the cards.
 */
export function yearlySavingPercent(monthlyCents: number, yearlyCents: number): number {
  if (monthlyCents <= 0) return 0;
  return Math.max(0, Math.round((1 - yearlyCents / (12 * monthlyCents)) * 100));
}

export function planSavingPercent(pricing: Pricing, plan: PlanType): number {
  return yearlySavingPercent(pricing[plan].monthly.amount, pricing[plan].yearly.amount);
}

/** The toggle's label: "Save 20%", "Save up to 22%" when the plans differ, or null when nothing is saved. */
export function toggleSavingLabel(pricing: Pricing): string | null {
  const savings = (['STARTER', 'GROWTH'] as const).map((plan) => planSavingPercent(pricing, plan));
  const best = Math.max(...savings);
  if (best <= 0) return null;
  return savings.every((saving) => saving === best) ? `Save ${best}%` : `Save up to ${best}%`;
}
