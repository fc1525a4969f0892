import { z } from 'zod';

export const subscriptionPlans = ['free_trial', 'starter', 'growth'] as const;
export type SubscriptionPlan = (typeof subscriptionPlans)[number];

/** The user as every API answer shows it (SPEC §3). No hash, token or code ever appears here. */
export const userSchema = z.object({
  id: z.string(),
  _id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  /** A new address waiting for its code (issue 12); `email` changes only once that code is entered. */
  pendingEmail: z.string().nullable().optional(),
  businessName: z.string(),
  businessPhone: z.string(),
  businessAddress: z.string(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  verified: z.boolean(),
  admin: z.boolean(),
  isExternalAuth: z.boolean(),
  provider: z.string().nullable(),
  providerId: z.string().nullable(),
  subscriptionPlan: z.enum(subscriptionPlans),
  subscriptionPeriod: z.enum(['monthly', 'yearly']).nullable(),
  subscriptionStatus: z.string(),
  trialEndDate: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  plivoNumber: z.string().nullable(),
  plivoNumberStatus: z.enum(['pending', 'verified', 'failed']).nullable(),
  phoneNumber: z.string().nullable(),
  pushNotificationsEnabled: z.boolean(),
  devicePlatform: z.string().nullable(),
  /** The Monday email "Your waitlist recovered $X this week" (issue 14). */
  weeklySummaryEnabled: z.boolean(),
  businessVerification: z.object({ status: z.string().nullable(), businessPhone: z.string() }),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

// ---- answers (SPEC §7) ----
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

export const messageResponse = z.object({ success: z.literal(true), message: z.string() });
export const authResponse = z.object({
  success: z.literal(true),
  token: z.string(),
  user: userSchema,
  message: z.string().optional(),
});
export type AuthResponse = z.infer<typeof authResponse>;
export const meResponse = z.object({ success: z.literal(true), data: userSchema });
export const userResponse = z.object({
  success: z.literal(true),
  user: userSchema,
  message: z.string().optional(),
});
export const userDataResponse = z.object({ success: z.literal(true), data: userSchema, message: z.string() });
