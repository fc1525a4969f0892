import type { User } from '@waitlist/contract';
import type { UserRow } from './auth.repo.ts';

/** The one place a user row becomes an API object: an allow-list, so no hash or secret can leak. */
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
    businessVerification: { status: row.businessVerificationStatus, businessPhone: row.businessPhone },
    createdAt: row.createdAt.toISOString(),
  };
}
