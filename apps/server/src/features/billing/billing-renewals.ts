import { enqueueEmail } from '../../outbox/index.ts';
import { trialEndedEmail } from './billing.emails.ts';
import type { BillingContext } from './billing-context.ts';

/** Marks trials that ended without a plan and emails their owners; returns how many. */
async function expireTrials(ctx: BillingContext, now: Date) {
  const expired = await ctx.withOutbox(async (tx) => {
    const rows = await ctx.users.expireTrials(tx, now);
    for (const owner of rows) await enqueueEmail(tx, trialEndedEmail(owner, ctx.planUrl), ctx.clock.now());
    return rows;
  });
  return expired.length;
}

/**
 * The worker's pass (also run by /dev/billing/advance): the local provider's due period ends (renewals,
 * scheduled changes, cancellations), synced to the users, then trials that ended without a plan.
 */
export async function applyDue(ctx: BillingContext) {
  const { local } = ctx;
  const now = local ? await local.now() : ctx.clock.now();
  const outcomes = local ? await local.applyDuePeriodEnds() : [];
  for (const outcome of outcomes) await ctx.syncSubscription(outcome.customerId, outcome.subscription);
  const trialsExpired = await expireTrials(ctx, now);
  return { now, outcomes, trialsExpired };
}
