/**
 * Where features that need each other meet (with app.ts, the only files that import several features' repos
 * or services). Each feature receives a narrow dependency (a `Pick<>` of another's repo or service) and never
 * imports another feature's internals; the boundary lint rule in biome.json holds that (decision 0008).
 */

import type { Executor } from './db/client.ts';
import type { UserRow } from './db/rows.ts';
import * as authRepo from './features/auth/auth.repo.ts';
import { billingStanding, billingStandingMessage } from './features/billing/billing-standing.ts';
import * as messagingRepo from './features/messaging/messaging.repo.ts';
import { createTexting, type TextingCustomers } from './features/messaging/messaging.service.ts';
import { optedOutSql } from './features/messaging/opt-outs.repo.ts';
import * as openingsRepo from './features/openings/openings.repo.ts';
import * as waitlistRepo from './features/waitlist/waitlist.repo.ts';

/** The customers table as texting sees it (features/waitlist's repo owns it). */
export const textingCustomers: TextingCustomers = {
  findCustomerAnyStatus: waitlistRepo.findCustomerAnyStatus,
  findCustomerByPhone: waitlistRepo.findCustomerByPhone,
  claimFirstText: waitlistRepo.claimFirstText,
  setOptedOutByPhone: waitlistRepo.setOptedOutByPhone,
  // The business's opt-outs (issue 24) are checked by the claim itself, not only through the mirror.
  claimCustomersForText: (executor, input) =>
    waitlistRepo.claimCustomersForText(executor, input, optedOutSql),
};

/** The customers and templates as openings see them. */
export const openingCustomers = {
  alertCandidates: (executor: Executor, userId: string) =>
    waitlistRepo.alertCandidates(executor, userId, optedOutSql),
  setCustomerStatus: waitlistRepo.setCustomerStatus,
  releaseCustomer: waitlistRepo.releaseCustomer,
  releaseOfferedBy: waitlistRepo.releaseOfferedBy,
  templatesOf: waitlistRepo.templatesOf,
  claimAutoAnswer: waitlistRepo.claimAutoAnswer,
  autoAnsweredRecently: waitlistRepo.autoAnsweredRecently,
  claimAutoAnswerSql: waitlistRepo.claimAutoAnswerSql,
};

/** The owners (features/auth's repo owns `users`) as the waitlist and openings see them. */
export const owners = {
  lockUser: authRepo.lockUser,
  findUserById: authRepo.findUserById,
  setTimeZone: authRepo.setTimeZone,
};

/** The business's dedicated number as texting sees it (features/auth's repo owns `users`). */
export const businessNumbers = {
  findSender: authRepo.findSender,
  setPhoneNumber: authRepo.setPhoneNumber,
  claimNumberRequest: authRepo.claimNumberRequest,
};

/** Queues a text in the caller's transaction (tests and tools use it too); the caller wakes the outbox. */
export const { enqueueSms, enqueueSmsMany } = createTexting(textingCustomers, businessNumbers);

/** Why an owner's waitlist is read-only now (billing standing ≠ ok), or null. */
export function readOnlyReason(user: UserRow, now: Date): string | null {
  const standing = billingStanding(user, now);
  return standing === 'ok' ? null : (billingStandingMessage(standing) ?? standing);
}

/** The owners' subscription cache as features/billing sees it. */
export const billingUsers = {
  findUserById: authRepo.findUserById,
  findUserByBillingCustomerId: authRepo.findUserByBillingCustomerId,
  findUserByBillingCustomerIdForUpdate: authRepo.findUserByBillingCustomerIdForUpdate,
  setBillingCustomerIdIfMissing: authRepo.setBillingCustomerIdIfMissing,
  updateSubscriptionFields: authRepo.updateSubscriptionFields,
  expireTrials: authRepo.expireTrials,
};

/** The owners as the admin list reads them. */
export const adminUsers = { listUsers: authRepo.listUsers, countUsers: authRepo.countUsers };

/** The owner's push fields as features/push sees them (features/auth's repo owns the users table). */
export const pushUsers = { setPushSettings: authRepo.setPushSettings };

/** The owner's weekly summary switch and the owners it goes to, as features/dashboard sees them. */
export const summaryUsers = {
  setWeeklySummary: authRepo.setWeeklySummary,
  weeklySummaryOwners: authRepo.weeklySummaryOwners,
};

/** The earnings dashboard's figures, each from its table's repo (features/dashboard owns no table). */
export const dashboardSources = {
  openingTotals: openingsRepo.openingTotals,
  weeklyOpenings: openingsRepo.weeklyOpenings,
  allTimeOpenings: openingsRepo.allTimeOpenings,
  textTotals: messagingRepo.textTotals,
  optOutsAndWaitlistSize: waitlistRepo.optOutsAndWaitlistSize,
};

/** The alerts a customer was texted, as the inbox sees them (features/openings' repo owns offers). */
export const inboxOffers = openingsRepo.offersOfCustomer;

/** The owners as joining sees them: the join link's slug and the owner's row lock. */
export const joinOwners = {
  findOwnerByJoinSlug: authRepo.findOwnerByJoinSlug,
  setJoinSlugIfMissing: authRepo.setJoinSlugIfMissing,
  lockUser: authRepo.lockUser,
};
