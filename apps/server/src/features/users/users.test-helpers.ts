import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { localEmails, users } from '../../db/schema.ts';
import {
  auth,
  createTestApp,
  latestCodeFor,
  registerUser,
  type TestApp,
  uniqueIp,
} from '../../test/test-app.ts';

/** Shared by the profile-update tests (users.test.ts, update-details.test.ts); each file gets its own app. */

type Owner = Awaited<ReturnType<typeof registerUser>>;
export let t: TestApp;
/** `owner` is verified and edits their profile; `other` is someone else's account. */
export let owner: Owner;
export let other: Owner;
/** Registers the suite's hooks: one app per test file, a verified `owner` and an `other` account. */
export function useUsersTestApp() {
  beforeAll(async () => {
    t = await createTestApp();
    owner = await registerUser(t);
    other = await registerUser(t, { firstName: 'Olga', lastName: 'Other' });
    await verifyEmail(owner);
  });
  afterAll(() => t.close());
}

export async function verifyEmail(user: Owner) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/verify-account',
    headers: auth(user.token),
    payload: { verificationCode: await latestCodeFor(t, user.email) },
    remoteAddress: uniqueIp(),
  });
  expect(response.statusCode).toBe(200);
}
export const updateDetails = (token: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v1/auth/updatedetails',
    headers: auth(token),
    payload: payload as object,
  });
export const putUser = (token: string, id: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/users/${id}`,
    headers: auth(token),
    payload: payload as object,
  });
export const me = async (token: string) =>
  (await t.app.inject({ url: '/api/v1/auth/me', headers: auth(token) })).json().data;
export const userRow = async (id: string) =>
  (await t.database.db.select().from(users).where(eq(users.id, id)))[0]!;
export async function emailsTo(to: string) {
  await t.app.outbox.drain();
  const [row] = await t.database.db.select({ n: count() }).from(localEmails).where(eq(localEmails.to, to));
  return row!.n;
}
/** The whole row minus the columns every update touches, for "nothing else changed" comparisons. */
/** The stored fields a request writes: not the timestamp, nor the search columns the database derives from them. */
export const withoutUpdatedAt = ({
  updatedAt: _updated,
  searchText: _search,
  phoneDigits: _digits,
  ...row
}: Awaited<ReturnType<typeof userRow>>) => row;

export const details = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Bella',
  lastName: 'Rossi',
  email: owner.email,
  businessName: 'Bella Salon',
  businessPhone: '(555) 123-4567',
  businessAddress: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  ...overrides,
});

/** Everything a client could try to slip into a profile update besides the profile fields. */
export const forbiddenFields = {
  admin: true,
  verified: false,
  isVerified: true,
  subscriptionPlan: 'growth',
  subscriptionPeriod: 'yearly',
  subscriptionStatus: 'active',
  trialEndDate: '2099-01-01T00:00:00.000Z',
  currentPeriodEnd: '2099-01-01T00:00:00.000Z',
  passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2g',
  password_hash: 'x',
  password: 'hacked123',
  isExternalAuth: true,
  provider: 'google',
  providerId: 'google-123',
  businessVerificationStatus: 'approved',
  businessVerification: { status: 'approved', businessPhone: '5550000000' },
  plivoNumber: '+15550001111',
  plivoNumberStatus: 'verified',
  phoneNumber: '+15550002222',
  pushNotificationsEnabled: true,
  devicePlatform: 'ios',
  createdAt: '2000-01-01T00:00:00.000Z',
  emailVerificationCode: '123456',
  verificationCode: '123456',
  codeHash: 'x',
  failedAttempts: 99,
  resetPasswordToken: 'x',
  role: 'admin',
};
