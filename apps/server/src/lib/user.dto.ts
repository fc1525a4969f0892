import { authMessages, type User } from '@waitlist/contract';
import type { UserRow } from '../db/rows.ts';

/**
 * The one place a user row becomes an API object: an allow-list, so no hash or secret can leak. GET /auth/me
 * has the database write the same object (features/auth/auth.repo.ts `userDtoJson`; a test holds them equal).
 */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    _id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    pendingEmail: row.pendingEmail,
    businessName: row.businessName,
    businessPhone: row.businessPhone,
    businessAddress: row.businessAddress,
    city: row.city,
    state: row.state,
    zip: row.zip,
    verified: row.verified,
    admin: row.admin,
    isExternalAuth: row.isExternalAuth,
    provider: row.provider,
    providerId: row.providerId,
    subscriptionPlan: row.subscriptionPlan,
    subscriptionPeriod: row.subscriptionPeriod,
    subscriptionStatus: row.subscriptionStatus,
    trialEndDate: row.trialEndDate?.toISOString() ?? null,
    currentPeriodEnd: row.currentPeriodEnd?.toISOString() ?? null,
    plivoNumber: row.plivoNumber,
    plivoNumberStatus: row.plivoNumberStatus,
    phoneNumber: row.phoneNumber,
    pushNotificationsEnabled: row.pushNotificationsEnabled,
    devicePlatform: row.devicePlatform,
    weeklySummaryEnabled: row.weeklySummaryEnabled,
    businessVerification: { status: row.businessVerificationStatus, businessPhone: row.businessPhone },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The answer to a profile update: a pending new address is named, so the owner knows where the code went. */
export function profileUpdateMessage(result: {
  user: { pendingEmail: string | null };
  emailChange: 'pending' | 'replaced' | undefined;
}) {
  if (result.emailChange === 'pending') return authMessages.emailChangePending(result.user.pendingEmail!);
  return result.emailChange === 'replaced' ? authMessages.emailChangedVerify : authMessages.detailsUpdated;
}
