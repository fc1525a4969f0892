import type { User } from '@waitlist/contract';

/** A user as GET /auth/me answers it: verified, business submitted, on the free trial. */
export function makeUser(overrides: Partial<User> = {}): User {
  const id = overrides.id ?? '6b1f1c1e-1d2a-4c1b-9a55-0c7e2f1a9d10';
  return {
    id,
    _id: id,
    firstName: 'Bella',
    lastName: 'Rossi',
    email: 'bella@example.com',
    businessName: 'Bella Salon',
    businessPhone: '5551234567',
    businessAddress: '12 Main St',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    verified: true,
    admin: false,
    isExternalAuth: false,
    provider: null,
    providerId: null,
    subscriptionPlan: 'free_trial',
    subscriptionPeriod: null,
    subscriptionStatus: 'trialing',
    trialEndDate: '2030-01-08T00:00:00.000Z',
    currentPeriodEnd: null,
    plivoNumber: null,
    plivoNumberStatus: null,
    phoneNumber: null,
    pushNotificationsEnabled: false,
    devicePlatform: null,
    weeklySummaryEnabled: true,
    businessVerification: { status: 'submitted', businessPhone: '5551234567' },
    createdAt: '2030-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export const unverifiedUser = (overrides: Partial<User> = {}) =>
  makeUser({ verified: false, businessVerification: { status: null, businessPhone: '' }, ...overrides });

export const newVerifiedUser = (overrides: Partial<User> = {}) =>
  makeUser({
    businessName: '',
    businessPhone: '',
    businessVerification: { status: null, businessPhone: '' },
    ...overrides,
  });

/** A server answer for an error, in the API's one error shape. */
export const errorAnswer = (status: number, message?: string, errors?: Record<string, string>) => ({
  status,
  body: { success: false, ...(message === undefined ? {} : { message }), ...(errors ? { errors } : {}) },
});
