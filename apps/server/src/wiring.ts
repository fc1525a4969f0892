/**
 * Where features that need each other meet (with app.ts, the only files that import several features' repos
 * or services). Each feature receives a narrow dependency (a `Pick<>` of another's repo or service) and never
 * imports another feature's internals; the boundary lint rule in biome.json holds that (decision 0008).
 */

import { businessNameIn, customerWords } from '@waitlist/contract';
import type { Database, Executor } from './db/client.ts';
import type { UserRow } from './db/rows.ts';
import * as authRepo from './features/auth/auth.repo.ts';
import * as calendarBookingsRepo from './features/calendar/bookings.repo.ts';
import { bookingUid } from './features/calendar/ics.ts';
import { verdictAfterAnswer } from './features/conversation/reply-policy.ts';
import * as messagingRepo from './features/messaging/messaging.repo.ts';
import type { TextingCustomers, VerdictAnswer } from './features/messaging/messaging.service.ts';
import { optedOutSql } from './features/messaging/opt-outs.repo.ts';
import * as openingsCalendarView from './features/openings/calendar-view.repo.ts';
import * as openingsRepo from './features/openings/openings.repo.ts';
import * as openingFigures from './features/openings/openings-figures.repo.ts';
import * as servicesRepo from './features/services/services.repo.ts';
import * as customerChanges from './features/waitlist/customer-changes.repo.ts';
import * as waitlistRepo from './features/waitlist/waitlist.repo.ts';

/** The customers table as texting sees it (features/waitlist's repo owns it). */
export const textingCustomers: TextingCustomers = {
  findCustomerAnyStatus: waitlistRepo.findCustomerAnyStatus,
  findCustomerByPhone: waitlistRepo.findCustomerByPhone,
  claimFirstText: customerChanges.claimFirstText,
  // The business's opt-outs (issue 24) are checked by the claim itself, not only through the mirror.
  claimCustomersForText: (executor, input) =>
    customerChanges.claimCustomersForText(executor, input, optedOutSql),
};

/** The customers as the conversation changes them: the opt-out mirror, the automatic answer, the verdict. */
export const conversationCustomers = {
  setOptedOutByPhone: customerChanges.setOptedOutByPhone,
  setLanguage: customerChanges.setLanguage,
  takeAutoAnswer: customerChanges.takeAutoAnswer,
  writeReplyVerdict: customerChanges.writeReplyVerdict,
  writeReplyVerdicts: customerChanges.writeReplyVerdicts,
};

/**
 * What the one-statement way of storing a reply needs (decision 0013): waitlist's UPDATE that takes the
 * automatic answer on a verdict of 'answer', the answer's words, and the verdict the policy says follows it.
 */
export const verdictAnswer: VerdictAnswer = {
  take: customerChanges.answerOnVerdictSql,
  text: (businessName, language) =>
    customerWords(language).texts.autoAnswer(businessNameIn(businessName, language)),
  after: verdictAfterAnswer,
};

/** The customers and templates as openings see them. */
export const openingCustomers = {
  alertCandidates: (executor: Executor, userId: string) =>
    waitlistRepo.alertCandidates(executor, userId, optedOutSql),
  setCustomerStatus: customerChanges.setCustomerStatus,
  releaseCustomer: customerChanges.releaseCustomer,
  releaseOfferedBy: customerChanges.releaseOfferedBy,
  templatesOf: waitlistRepo.templatesOf,
};

/** The business's services, staff and offer rules as openings see them (features/services; issue 26). */
/** Customers' texts as an opening's rows show them ("Asked: …"; features/messaging owns the table). */
export const openingReplies = { since: messagingRepo.customerRepliesSince };

export const openingCatalog = {
  findService: servicesRepo.findService,
  findStaff: servicesRepo.findStaff,
  listServices: servicesRepo.listServices,
  staffByIds: servicesRepo.staffByIds,
  offerSettingsOf: servicesRepo.offerSettingsOf,
};

/** The business's services and staff as the waitlist and the join page see them (features/services; issue 26). */
export const entryCatalog = {
  findService: servicesRepo.findService,
  findStaff: servicesRepo.findStaff,
  listServices: servicesRepo.listServices,
  listStaff: servicesRepo.listStaff,
};

/** The owners (features/auth's repo owns `users`) as the waitlist and openings see them. */
export const owners = {
  lockUser: authRepo.lockUser,
  findUserById: authRepo.findUserById,
  setTimeZone: authRepo.setTimeZone,
  setPlainSpanishLetters: authRepo.setPlainSpanishLetters,
};

/** The business's dedicated number as texting sees it (features/auth's repo owns `users`). */
export const businessNumbers = {
  findSender: authRepo.findSender,
  setPhoneNumber: authRepo.setPhoneNumber,
  claimNumberRequest: authRepo.claimNumberRequest,
};

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
  weeklySummaryZones: authRepo.weeklySummaryZones,
  dueWeeklySummaryOwners: authRepo.dueWeeklySummaryOwners,
};

/** The earnings dashboard's figures, each from its table's repo (features/dashboard owns no table). */
export const dashboardSources = {
  openingTotals: openingFigures.openingTotals,
  weeklyOpenings: openingFigures.weeklyOpenings,
  allTimeOpenings: openingFigures.allTimeOpenings,
  textTotals: messagingRepo.textTotals,
  optOutsAndWaitlistSize: waitlistRepo.optOutsAndWaitlistSize,
  alertsByLanguage: waitlistRepo.alertsByLanguage,
};

/** The alerts a customer was texted, as the inbox sees them (features/openings' repo owns offers). */
export const inboxOffers = openingsRepo.offersOfCustomer;

/** The owners as joining sees them: the join link's slug and the owner's row lock. */
export const joinOwners = {
  findOwnerByJoinSlug: authRepo.findOwnerByJoinSlug,
  setJoinSlugIfMissing: authRepo.setJoinSlugIfMissing,
  lockUser: authRepo.lockUser,
};

/**
 * The openings as connected calendars read them (issue 29): a span of days (with the staff, for a proposal's
 * stylist, issue 39), and one claimed opening.
 */
export const proposalReads = { openingsBetween: openingsCalendarView.openingsBetween, catalog: entryCatalog };
export const calendarBookingOf = openingsCalendarView.bookingOf;
/** What openings record when a slot is claimed or released: the calendar bookings wanted (issue 29). */
export const calendarBookingWishes = {
  want: (
    tx: Executor,
    input: { userId: string; openingId: string; wanted: 'booked' | 'removed'; now: Date },
  ) => calendarBookingsRepo.wantBookings(tx, { ...input, uid: bookingUid(input.openingId) }),
};

/** The businesses as the local calendar's pages and CalDAV name them (features/auth's repo owns `users`). */
export function localCalendarBusinesses(db: Database) {
  const business = (user: UserRow | undefined) =>
    user && { id: user.id, businessName: user.businessName, timeZone: user.timeZone, email: user.email };
  return {
    findById: async (id: string) => business(await authRepo.findUserById(db, id)),
    findByEmail: async (email: string) => business(await authRepo.findUserByEmail(db, email)),
  };
}
